import {
  FEED_TOKEN_PARAM,
  createFeedToken,
  findFeedTokenById,
  listFeedTokens,
  revokeFeedToken,
} from '../users';
import { namespaceUrl, utcSql } from '../lib';
import { JSON_OPTION, notFoundError, optional, positiveId, required, type Command } from './common';
import { userByLogin } from './errors';
import { listSecrets } from './tokens';

/**
 * `feed-token:*` (docs/feeds.md "Private feeds"): create a user's private feed URL (printed
 * once: only a hash of its token is kept), list tokens (never the secrets), revoke one.
 */

export const feedTokenCommands: Record<string, Command> = {
  'feed-token:create': {
    usage: '--login <login> [--name <name>] [--json]',
    summary: 'Create a private feed URL showing the events a user may read; prints it once.',
    options: { login: { type: 'string' }, name: { type: 'string' }, ...JSON_OPTION },
    async run({ db, config, now, out }, values) {
      const user = await userByLogin(db, required(values, 'login'));
      const name = optional(values, 'name') ?? 'feed-token:create';
      const made = await createFeedToken(db, user.id, name, now);
      const url = `${namespaceUrl(config)}/events.ics?${FEED_TOKEN_PARAM}=${made.secret}`;
      if (values.json) {
        out(JSON.stringify({ id: made.id, login: user.login, token: made.secret, url }));
        return;
      }
      out(`Private feed ${made.id} for "${user.login}", shown once — store it now:`);
      out(url);
      out(`The same token works on ${config.siteUrl}/events/?ical=1&${FEED_TOKEN_PARAM}=…`);
      out(`Revoke it with: feed-token:revoke ${made.id}`);
    },
  },
  'feed-token:list': {
    usage: '[--login <login>] [--json]',
    summary: 'List feed tokens (ids, names, dates; never the secrets).',
    options: { login: { type: 'string' }, ...JSON_OPTION },
    run: (context, values) =>
      listSecrets(context, values, (userId) => listFeedTokens(context.db, userId)),
  },
  'feed-token:revoke': {
    usage: '<id> | --id <id> [--json]',
    summary: 'Revoke a feed token by id (see feed-token:list; a token calfeed_<id>_… carries it).',
    options: { id: { type: 'string' }, ...JSON_OPTION },
    positionals: ['id'],
    async run({ db, now, out }, values) {
      const id = positiveId(values, 'id');
      const row = await findFeedTokenById(db, id);
      if (!row) throw notFoundError(`No feed token with id ${id}.`);
      const already = row.revoked_at !== null;
      if (!already) await revokeFeedToken(db, id, utcSql(now));
      if (values.json) out(JSON.stringify({ id, revoked: true, already_revoked: already }));
      else out(already ? `Feed token ${id} was already revoked.` : `Revoked feed token ${id}.`);
    },
  },
};
