import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { utcSql } from '../lib';
import {
  findCredentialWithUser,
  findLiveCredentialsByHash,
  findLiveCredentialsWithUserByHash,
  findLiveCredentialsOfUser,
  insertCredential,
  touchCredential,
  type CredentialRow,
  type CredentialTable,
} from './store/credentials';
import type { Queryable, UserRow } from '../db';
import { findUserById, findUserByLogin } from './store/users';

/**
 * Minting, storing and checking secrets. Every secret is random and high-entropy (a minted token
 * carries 256 bits, an application password about 143), so one SHA-256 is the right stored
 * form — as for GitHub or npm tokens; a slow password hash protects guessable human passwords
 * and would only cost CPU here. Hashes are compared with `timingSafeEqual`. Secrets are returned
 * to the caller once, at creation, and never logged.
 *
 * - API token: `cal_<id>_<secret>` (secret: 32 random bytes, base64url). Looked up by id.
 * - Chosen token (ADMIN_TOKEN, `user:add --token`): any string of at least 20 characters, stored
 *   as the hash of a prefixed value (so it can only match as a whole) and looked up by hash.
 * - Application password: 24 letters and digits shown as six groups of four, WordPress-style;
 *   spaces are ignored on input. Checked against every live password of the login.
 */

const TOKEN_PREFIX = 'cal_';
const MIN_CHOSEN_TOKEN_LENGTH = 20;
const CHOSEN_TOKEN_DOMAIN = 'chosen-token:';
const APP_PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const APP_PASSWORD_LENGTH = 24;
/** A credential's `last_used_at` is refreshed at most this often (seconds). */
const TOUCH_INTERVAL = 60;

/** Hex SHA-256 of a secret: the only form a secret is stored in. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function chosenTokenHash(token: string): string {
  return hashSecret(CHOSEN_TOKEN_DOMAIN + token);
}

/** Constant-time comparison of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export function formatToken(id: number, secret: string): string {
  return `${TOKEN_PREFIX}${id}_${secret}`;
}

/** `cal_<id>_<secret>` → its parts; null for any other shape. */
export function parseToken(token: string): { id: number; secret: string } | null {
  const match = /^cal_(\d{1,15})_([A-Za-z0-9_-]{20,})$/.exec(token);
  if (!match) return null;
  return { id: Number(match[1]), secret: match[2] as string };
}

function newAppPassword(): string {
  const chars = Array.from(
    { length: APP_PASSWORD_LENGTH },
    () => APP_PASSWORD_ALPHABET[randomInt(APP_PASSWORD_ALPHABET.length)],
  ).join('');
  return (chars.match(/.{4}/g) ?? []).join(' ');
}

/** Application passwords are accepted with or without their grouping spaces. */
export function normalizeAppPassword(password: string): string {
  return password.replace(/\s+/g, '');
}

export class CredentialError extends Error {}

/** Checks a chosen token (ADMIN_TOKEN, `--token`); throws `CredentialError` saying why not. */
export function checkChosenToken(token: string): void {
  if (token.length < MIN_CHOSEN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new CredentialError(
      `a token must be at least ${MIN_CHOSEN_TOKEN_LENGTH} characters without spaces`,
    );
  }
}

export interface MintedCredential {
  id: number;
  /** The secret as the client sends it: shown once, never stored. */
  secret: string;
}

/**
 * Creates an API token for `userId`. Without `chosen`, a new random `cal_…` token; with it,
 * that exact value (which must be unused: two users cannot share a token).
 */
export async function createApiToken(
  q: Queryable,
  userId: number,
  name: string,
  now: Date,
  chosen?: string,
): Promise<MintedCredential> {
  if (chosen !== undefined) {
    checkChosenToken(chosen);
    const hash = chosenTokenHash(chosen);
    if ((await findLiveCredentialsByHash(q, 'api_tokens', hash)).length) {
      throw new CredentialError('this token is already in use');
    }
    const id = await insertCredential(q, 'api_tokens', {
      user_id: userId,
      name,
      secret_hash: hash,
      created_at: utcSql(now),
    });
    return { id, secret: chosen };
  }
  const secret = randomBytes(32).toString('base64url');
  const id = await insertCredential(q, 'api_tokens', {
    user_id: userId,
    name,
    secret_hash: hashSecret(secret),
    created_at: utcSql(now),
  });
  return { id, secret: formatToken(id, secret) };
}

export async function createAppPassword(
  q: Queryable,
  userId: number,
  name: string,
  now: Date,
): Promise<MintedCredential> {
  const password = newAppPassword();
  const id = await insertCredential(q, 'app_passwords', {
    user_id: userId,
    name,
    secret_hash: hashSecret(normalizeAppPassword(password)),
    created_at: utcSql(now),
  });
  return { id, secret: password };
}

/** Is a live token with this exact chosen value stored (ADMIN_TOKEN already in place)? */
export async function chosenTokenExists(q: Queryable, token: string): Promise<boolean> {
  return (await findLiveCredentialsByHash(q, 'api_tokens', chosenTokenHash(token))).length > 0;
}

/**
 * Records a use of a credential (`what`, for the warning) last used at `lastUsedAt`: at most
 * once per `intervalSeconds`, by `touch(now, recent)` (an update that also skips a row stamped
 * since `recent`). Bookkeeping only: a failed update must not turn a valid credential into a
 * rejection, so it is logged, never thrown.
 */
export async function recordUse(
  what: string,
  lastUsedAt: string | null,
  now: Date,
  intervalSeconds: number,
  touch: (now: string, recent: string) => Promise<unknown>,
): Promise<void> {
  const recent = utcSql(now.getTime() - intervalSeconds * 1000);
  if (lastUsedAt !== null && lastUsedAt >= recent) return;
  try {
    await touch(utcSql(now), recent);
  } catch (error) {
    console.warn(`could not record the use of ${what}: ${(error as Error).message}`);
  }
}

async function used(
  q: Queryable,
  table: CredentialTable,
  row: CredentialRow,
  now: Date,
  /** The credential's user, when the caller read it already. */
  user?: UserRow,
): Promise<UserRow | null> {
  await recordUse(`${table} ${row.id}`, row.last_used_at, now, TOUCH_INTERVAL, (at, recent) =>
    touchCredential(q, table, row.id, at, recent),
  );
  return user ?? (await findUserById(q, row.user_id)) ?? null;
}

/** The user a bearer token belongs to, or null when it is unknown, wrong or revoked. */
export async function verifyToken(q: Queryable, token: string, now: Date): Promise<UserRow | null> {
  const parsed = parseToken(token);
  if (parsed) {
    const found = await findCredentialWithUser(q, 'api_tokens', parsed.id);
    const row = found?.credential;
    if (row && row.revoked_at === null && sameHash(hashSecret(parsed.secret), row.secret_hash)) {
      return used(q, 'api_tokens', row, now, found.user);
    }
  }
  if (token.length < MIN_CHOSEN_TOKEN_LENGTH) return null;
  const hash = chosenTokenHash(token);
  const [found] = await findLiveCredentialsWithUserByHash(q, 'api_tokens', hash);
  return found && sameHash(hash, found.credential.secret_hash)
    ? used(q, 'api_tokens', found.credential, now, found.user)
    : null;
}

/** The user of `login` when `password` is one of its live application passwords, else null. */
export async function verifyAppPassword(
  q: Queryable,
  login: string,
  password: string,
  now: Date,
): Promise<UserRow | null> {
  const hash = hashSecret(normalizeAppPassword(password));
  const user = await findUserByLogin(q, login);
  if (!user) return null;
  let match: CredentialRow | null = null;
  // Every live password is compared (no early exit), so timing does not tell which one matched.
  for (const row of await findLiveCredentialsOfUser(q, 'app_passwords', Number(user.id))) {
    if (sameHash(hash, row.secret_hash) && !match) match = row;
  }
  return match ? used(q, 'app_passwords', match, now) : null;
}
