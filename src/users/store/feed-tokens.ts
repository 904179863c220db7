import type { Queryable, UserRow } from '../../db';

/** Feed tokens (`feed_tokens`): the shape of the other credentials, in a table of their own. */

export interface FeedTokenRow {
  id: number;
  user_id: number;
  name: string;
  /** Hex SHA-256 of the secret; the secret itself is never stored. */
  secret_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const TABLE = 'feed_tokens';

function normalize(raw: Record<string, unknown>): FeedTokenRow {
  return { ...(raw as unknown as FeedTokenRow), id: Number(raw.id), user_id: Number(raw.user_id) };
}

export async function insertFeedToken(
  q: Queryable,
  row: Omit<FeedTokenRow, 'id' | 'last_used_at' | 'revoked_at'>,
): Promise<number> {
  const [id] = await q(TABLE).insert(row);
  return Number(id);
}

export async function findFeedTokenById(
  q: Queryable,
  id: number,
): Promise<FeedTokenRow | undefined> {
  const raw = (await q(TABLE).where({ id }).first()) as Record<string, unknown> | undefined;
  return raw ? normalize(raw) : undefined;
}

/** A token and its user in one query (every private feed request). */
export async function findFeedTokenWithUser(
  q: Queryable,
  id: number,
): Promise<{ token: FeedTokenRow; user: UserRow } | undefined> {
  const raw = (await q(TABLE)
    .join('users', 'users.id', `${TABLE}.user_id`)
    .where(`${TABLE}.id`, id)
    .first(`${TABLE}.*`, ...USER_COLUMNS.map((column) => `users.${column} as user_${column}`))) as
    Record<string, unknown> | undefined;
  if (!raw) return undefined;
  const user: Record<string, unknown> = {};
  const token: Record<string, unknown> = { ...raw };
  for (const column of USER_COLUMNS) {
    user[column] = raw[`user_${column}`];
    delete token[`user_${column}`];
  }
  return {
    token: normalize(token),
    user: { ...user, id: Number(user.id) } as unknown as UserRow,
  };
}

const USER_COLUMNS = ['id', 'login', 'display_name', 'email', 'role', 'created_at'] as const;

/** Every feed token (revoked ones too), optionally of one user, by id. */
export async function listFeedTokens(q: Queryable, userId?: number): Promise<FeedTokenRow[]> {
  const query = q(TABLE).orderBy('id');
  if (userId !== undefined) query.where({ user_id: userId });
  return (await query).map((r: Record<string, unknown>) => normalize(r));
}

export async function revokeFeedToken(q: Queryable, id: number, at: string): Promise<void> {
  await q(TABLE).where({ id }).whereNull('revoked_at').update({ revoked_at: at });
}

/** Records a use; skipped when the last one is recent, so feed polls do not turn into writes. */
export async function touchFeedToken(
  q: Queryable,
  id: number,
  at: string,
  unlessAfter: string,
): Promise<void> {
  await q(TABLE)
    .where({ id })
    .andWhere((w) => w.whereNull('last_used_at').orWhere('last_used_at', '<', unlessAfter))
    .update({ last_used_at: at });
}
