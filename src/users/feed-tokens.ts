import { randomBytes } from 'node:crypto';
import { utcSql } from '../lib';
import type { Queryable, UserRow } from '../db';
import { hashSecret, recordUse, sameHash, type MintedCredential } from './credentials';
import {
  findFeedTokenWithUser,
  insertFeedToken,
  touchFeedToken,
  type FeedTokenRow,
} from './store/feed-tokens';

/**
 * Private feed tokens (docs/feeds.md "Private feeds"): a secret carried in a feed's URL, since
 * calendar apps send no `Authorization` header, that reads the feed as its user would. Minted,
 * stored and checked as API tokens are (src/users/credentials.ts): `calfeed_<id>_<secret>`, 32
 * random bytes, only their SHA-256 stored, looked up by id, compared in constant time, revocable.
 * A feed token is a credential of its own kind: it only ever reads feeds.
 */

/** The query parameter a feed token travels in (`…/events.ics?feed_token=…`). */
export const FEED_TOKEN_PARAM = 'feed_token';

const FEED_TOKEN_PREFIX = 'calfeed_';
/** `last_used_at` is refreshed at most this often (seconds): calendar apps poll. */
const TOUCH_INTERVAL = 300;

/**
 * Compares the hash of a presented secret with the stored one (`expected`: '' when no live token
 * has that id). `subject` names what is guessed at, for a throttle that counts wrong guesses
 * (the `passwordGuesses` of a request's context).
 */
export type SecretCheck = (subject: string, given: string, expected: string) => Promise<boolean>;

const constantTime: SecretCheck = async (_subject, given, expected) => sameHash(given, expected);

/** `calfeed_<id>_<secret>` → its parts; null for any other shape. */
function parseFeedToken(token: string): { id: number; secret: string } | null {
  const match = /^calfeed_(\d{1,15})_([A-Za-z0-9_-]{20,})$/.exec(token);
  return match ? { id: Number(match[1]), secret: match[2]! } : null;
}

/** A new feed token of `userId`; the secret is returned once and never stored. */
export async function createFeedToken(
  q: Queryable,
  userId: number,
  name: string,
  now: Date,
): Promise<MintedCredential> {
  const secret = randomBytes(32).toString('base64url');
  const id = await insertFeedToken(q, {
    user_id: userId,
    name,
    secret_hash: hashSecret(secret),
    created_at: utcSql(now),
  });
  return { id, secret: `${FEED_TOKEN_PREFIX}${id}_${secret}` };
}

/** The user a feed token reads as, or null when it is malformed, unknown, wrong or revoked. */
export async function verifyFeedToken(
  q: Queryable,
  token: string,
  now: Date,
  check: SecretCheck = constantTime,
): Promise<UserRow | null> {
  const parsed = parseFeedToken(token);
  const found = parsed ? await findFeedTokenWithUser(q, parsed.id) : undefined;
  const live: FeedTokenRow | undefined =
    found && found.token.revoked_at === null ? found.token : undefined;
  const given = hashSecret(parsed?.secret ?? token);
  const subject = `feed-token:${parsed?.id ?? 'malformed'}`;
  if (!(await check(subject, given, live?.secret_hash ?? '')) || !live || !found) return null;
  await recordUse(`feed token ${live.id}`, live.last_used_at, now, TOUCH_INTERVAL, (at, recent) =>
    touchFeedToken(q, live.id, at, recent),
  );
  return found.user;
}
