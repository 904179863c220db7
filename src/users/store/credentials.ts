import { HotRead, type Queryable, type UserRow } from '../../db';

/** API tokens and application passwords: the same shape in two tables. */
export type CredentialTable = 'api_tokens' | 'app_passwords';

export interface CredentialRow {
  id: number;
  user_id: number;
  name: string;
  /** Hex SHA-256 of the secret; the secret itself is never stored. */
  secret_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function normalize(raw: Record<string, unknown> | undefined): CredentialRow | undefined {
  if (!raw) return undefined;
  return { ...(raw as unknown as CredentialRow), id: Number(raw.id), user_id: Number(raw.user_id) };
}

export async function insertCredential(
  q: Queryable,
  table: CredentialTable,
  row: Omit<CredentialRow, 'id' | 'last_used_at' | 'revoked_at'>,
): Promise<number> {
  const [id] = await q(table).insert(row);
  return Number(id);
}

export async function findCredentialById(
  q: Queryable,
  table: CredentialTable,
  id: number,
): Promise<CredentialRow | undefined> {
  return normalize(await q(table).where({ id }).first());
}

const USER_COLUMNS = ['id', 'login', 'display_name', 'email', 'role', 'created_at'] as const;

/**
 * A credential with its user's columns, prefixed `owner_` (not `user_`: `users.id as user_id`
 * would overwrite the credential's own `user_id`, null when the user row is gone).
 */
function withUser(q: Queryable, table: CredentialTable) {
  return q(table)
    .leftJoin('users', 'users.id', `${table}.user_id`)
    .select(`${table}.*`, ...USER_COLUMNS.map((column) => `users.${column} as owner_${column}`));
}

/** One hot read per credential table (src/db/hot-read.ts). */
function perTable(
  read: (table: CredentialTable) => ConstructorParameters<typeof HotRead>[0],
): Record<CredentialTable, HotRead> {
  return {
    api_tokens: new HotRead(read('api_tokens')),
    app_passwords: new HotRead(read('app_passwords')),
  };
}

/** The credential-with-user reads of every authenticated request, by id and by hash (live). */
const WITH_USER_BY_ID = perTable(
  (table) => (q, ids) => withUser(q, table).whereIn(`${table}.id`, ids),
);
const LIVE_WITH_USER_BY_HASH = perTable(
  (table) => (q, hashes) =>
    withUser(q, table).whereIn(`${table}.secret_hash`, hashes).whereNull(`${table}.revoked_at`),
);

export interface CredentialWithUser {
  credential: CredentialRow;
  /** Undefined when the user row is gone. */
  user: UserRow | undefined;
}

function splitUser(raw: Record<string, unknown>): CredentialWithUser {
  const credential = normalize(raw)!;
  const user: Record<string, unknown> = {};
  for (const column of USER_COLUMNS) {
    user[column] = raw[`owner_${column}`];
    delete (credential as unknown as Record<string, unknown>)[`owner_${column}`];
  }
  return {
    credential,
    user: user.id === null ? undefined : ({ ...user, id: Number(user.id) } as unknown as UserRow),
  };
}

/**
 * A credential and its user in one statement (the bearer-token path of every authenticated
 * request), run as a hot read (src/db/hot-read.ts): a prepared statement on MySQL.
 */
export async function findCredentialWithUser(
  q: Queryable,
  table: CredentialTable,
  id: number,
): Promise<CredentialWithUser | undefined> {
  const [raw] = await WITH_USER_BY_ID[table].run(q, [id]);
  return raw ? splitUser(raw) : undefined;
}

/** Live (not revoked) credentials whose stored hash is exactly this one, with their users. */
export async function findLiveCredentialsWithUserByHash(
  q: Queryable,
  table: CredentialTable,
  secretHash: string,
): Promise<CredentialWithUser[]> {
  return (await LIVE_WITH_USER_BY_HASH[table].run(q, [secretHash])).map(splitUser);
}

/** Live (not revoked) rows whose stored hash is exactly this one. */
export async function findLiveCredentialsByHash(
  q: Queryable,
  table: CredentialTable,
  secretHash: string,
): Promise<CredentialRow[]> {
  const rows = await q(table).where({ secret_hash: secretHash }).whereNull('revoked_at');
  return rows.map((r: Record<string, unknown>) => normalize(r) as CredentialRow);
}

/** Live (not revoked) credentials of one user. */
export async function findLiveCredentialsOfUser(
  q: Queryable,
  table: CredentialTable,
  userId: number,
): Promise<CredentialRow[]> {
  const rows = await q(table).where({ user_id: userId }).whereNull('revoked_at').orderBy('id');
  return rows.map((r: Record<string, unknown>) => normalize(r) as CredentialRow);
}

/** How many credentials are live (not revoked) in the table. */
export async function countLiveCredentials(q: Queryable, table: CredentialTable): Promise<number> {
  const row = await q(table)
    .whereNull('revoked_at')
    .count<{ n: number | string }[]>({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

/** Every credential (revoked ones too), optionally of one user, by id. */
export async function listCredentials(
  q: Queryable,
  table: CredentialTable,
  userId?: number,
): Promise<CredentialRow[]> {
  const query = q(table).orderBy('id');
  if (userId !== undefined) query.where({ user_id: userId });
  return (await query).map((r: Record<string, unknown>) => normalize(r) as CredentialRow);
}

export async function revokeCredential(
  q: Queryable,
  table: CredentialTable,
  id: number,
  at: string,
): Promise<void> {
  await q(table).where({ id }).whereNull('revoked_at').update({ revoked_at: at });
}

/** Records a use; skipped when the last one is recent, so reads do not turn into writes. */
export async function touchCredential(
  q: Queryable,
  table: CredentialTable,
  id: number,
  at: string,
  unlessAfter: string,
): Promise<void> {
  await q(table)
    .where({ id })
    .andWhere((w) => w.whereNull('last_used_at').orWhere('last_used_at', '<', unlessAfter))
    .update({ last_used_at: at });
}
