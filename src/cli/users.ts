import { transact } from '../db';
import {
  checkRole,
  createApiToken,
  insertNewUser,
  listCredentials,
  listUsers,
  ROLES,
} from '../users';
import { JSON_OPTION, optional, printRows, required, type Command } from './common';
import { asUsage } from './errors';

/** `user:add`, `user:list`. */

export const userCommands: Record<string, Command> = {
  'user:add': {
    usage: '--login <login> --role <role> [--name <display name>] [--token <token>] [--json]',
    summary: `Create a user (role: ${ROLES.join(', ')}) and an API token for it; prints the token once.`,
    options: {
      login: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      token: { type: 'string' },
      ...JSON_OPTION,
    },
    async run({ db, now, out }, values) {
      const login = required(values, 'login');
      const role = await asUsage(async () => checkRole(required(values, 'role')));
      const chosen = optional(values, 'token');
      // Through `transact`: a lost race (deadlock, Galera certification) runs again; a login
      // taken meanwhile then reads as taken: a usage error (exit 2), not a crash.
      const { user, token } = await asUsage(() =>
        transact(db, async (trx) => {
          const user = await insertNewUser(trx, login, role, now, optional(values, 'name'));
          return { user, token: await createApiToken(trx, user.id, 'user:add', now, chosen) };
        }),
      );
      if (values.json) {
        // A chosen token is the caller's own value: not echoed back.
        const secret = chosen === undefined ? token.secret : null;
        out(JSON.stringify({ user, token: { id: token.id, token: secret } }));
        return;
      }
      out(`Created user "${user.login}" (id ${user.id}, role ${user.role}).`);
      if (chosen !== undefined) {
        out(`Its API token (id ${token.id}) is the value given with --token.`);
        return;
      }
      out(`API token (id ${token.id}), shown once — store it now:`);
      out(token.secret);
    },
  },

  'user:list': {
    usage: '[--json]',
    summary: 'List users with their role and how many live tokens and app passwords they have.',
    options: { ...JSON_OPTION },
    async run({ db, out }, values) {
      const users = await listUsers(db);
      const live = async (t: 'api_tokens' | 'app_passwords') => {
        const counts = new Map<number, number>();
        for (const c of await listCredentials(db, t)) {
          if (c.revoked_at === null) counts.set(c.user_id, (counts.get(c.user_id) ?? 0) + 1);
        }
        return counts;
      };
      const tokens = await live('api_tokens');
      const passwords = await live('app_passwords');
      const rows = users.map((u) => ({
        id: u.id,
        login: u.login,
        role: u.role,
        display_name: u.display_name,
        created_at: u.created_at,
        tokens: tokens.get(u.id) ?? 0,
        app_passwords: passwords.get(u.id) ?? 0,
      }));
      printRows(out, values.json, rows, [
        ['ID', (r) => String(r.id)],
        ['LOGIN', (r) => r.login],
        ['ROLE', (r) => r.role],
        ['TOKENS', (r) => String(r.tokens)],
        ['APP PASSWORDS', (r) => String(r.app_passwords)],
        ['CREATED (UTC)', (r) => r.created_at],
      ]);
    },
  },
};
