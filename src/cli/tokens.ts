import {
  createApiToken,
  createAppPassword,
  findCredentialById,
  listCredentials,
  listUsers,
  revokeCredential,
  type CredentialTable,
} from '../users';
import { utcSql } from '../lib';
import {
  JSON_OPTION,
  notFoundError,
  optional,
  positiveId,
  required,
  printRows,
  type Command,
  type CommandContext,
} from './common';
import { asUsage, userByLogin } from './errors';

/** `token:*` and `app-password:*`: create (secret printed once), list (never secrets), revoke. */

interface Kind {
  table: CredentialTable;
  label: string;
  prefix: 'token' | 'app-password';
}

const TOKEN: Kind = { table: 'api_tokens', label: 'API token', prefix: 'token' };
const APP_PASSWORD: Kind = {
  table: 'app_passwords',
  label: 'application password',
  prefix: 'app-password',
};

function listCommand(kind: Kind): Command {
  return {
    usage: '[--login <login>] [--json]',
    summary: `List ${kind.label}s (ids, names, dates; never the secrets).`,
    options: { login: { type: 'string' }, ...JSON_OPTION },
    run: (context, values) =>
      listSecrets(context, values, (userId) => listCredentials(context.db, kind.table, userId)),
  };
}

function revokeCommand(kind: Kind): Command {
  return {
    usage: '--id <id> [--json]',
    summary: `Revoke an ${kind.label} by id (see ${kind.prefix}:list${kind === TOKEN ? '; a token cal_<id>_… carries its id' : ''}).`,
    options: { id: { type: 'string' }, ...JSON_OPTION },
    async run({ db, now, out }, values) {
      const id = positiveId(values, 'id');
      const row = await findCredentialById(db, kind.table, id);
      if (!row) throw notFoundError(`No ${kind.label} with id ${id}.`);
      const already = row.revoked_at !== null;
      if (!already) await revokeCredential(db, kind.table, id, utcSql(now));
      if (values.json) out(JSON.stringify({ id, revoked: true, already_revoked: already }));
      else
        out(already ? `${kind.label} ${id} was already revoked.` : `Revoked ${kind.label} ${id}.`);
    },
  };
}

export const tokenCommands: Record<string, Command> = {
  'token:add': {
    usage: '--login <login> [--name <name>] [--token <token>] [--json]',
    summary: 'Create an API token for a user; prints it once (--token: use this value instead).',
    options: {
      login: { type: 'string' },
      name: { type: 'string' },
      token: { type: 'string' },
      ...JSON_OPTION,
    },
    async run({ db, now, out }, values) {
      const user = await userByLogin(db, required(values, 'login'));
      const chosen = optional(values, 'token');
      const name = optional(values, 'name') ?? 'token:add';
      const token = await asUsage(() => createApiToken(db, user.id, name, now, chosen));
      const secret = chosen === undefined ? token.secret : null;
      if (values.json) {
        out(JSON.stringify({ id: token.id, login: user.login, token: secret }));
        return;
      }
      if (secret === null) {
        out(`Created API token ${token.id} for "${user.login}" with the value given with --token.`);
        return;
      }
      out(`API token ${token.id} for "${user.login}", shown once — store it now:`);
      out(secret);
    },
  },
  'token:list': listCommand(TOKEN),
  'token:revoke': revokeCommand(TOKEN),

  'app-password:add': {
    usage: '--login <login> [--name <name>] [--json]',
    summary: 'Create an application password (HTTP Basic login:password); prints it once.',
    options: { login: { type: 'string' }, name: { type: 'string' }, ...JSON_OPTION },
    async run({ db, now, out }, values) {
      const user = await userByLogin(db, required(values, 'login'));
      const name = optional(values, 'name') ?? 'app-password:add';
      const made = await createAppPassword(db, user.id, name, now);
      if (values.json) {
        out(JSON.stringify({ id: made.id, login: user.login, password: made.secret }));
        return;
      }
      out(`Application password ${made.id} for "${user.login}", shown once — store it now:`);
      out(made.secret);
      out(`Use it as HTTP Basic credentials ${user.login}:<password> (spaces optional).`);
    },
  },
  'app-password:list': listCommand(APP_PASSWORD),
  'app-password:revoke': revokeCommand(APP_PASSWORD),
};

/** A credential-like row as the list commands show it (secrets never listed). */
interface ListedSecret {
  id: number;
  user_id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** `…:list [--login] [--json]` of API tokens, application passwords and feed tokens alike. */
export async function listSecrets(
  { db, out }: CommandContext,
  values: Parameters<Command['run']>[1],
  find: (userId: number | undefined) => Promise<ListedSecret[]>,
): Promise<void> {
  const login = optional(values, 'login');
  const user = login === undefined ? undefined : await userByLogin(db, login);
  const logins = new Map((await listUsers(db)).map((u) => [u.id, u.login]));
  const rows = (await find(user?.id)).map((c) => ({
    id: c.id,
    login: logins.get(c.user_id) ?? String(c.user_id),
    name: c.name,
    created_at: c.created_at,
    last_used_at: c.last_used_at,
    revoked_at: c.revoked_at,
  }));
  printRows(out, values.json, rows, [
    ['ID', (r) => String(r.id)],
    ['LOGIN', (r) => r.login],
    ['NAME', (r) => r.name],
    ['CREATED (UTC)', (r) => r.created_at],
    ['LAST USED', (r) => r.last_used_at ?? '-'],
    ['REVOKED', (r) => r.revoked_at ?? '-'],
  ]);
}
