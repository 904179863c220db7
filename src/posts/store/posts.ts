import { firstFreeSlug } from '../../lib';
import {
  HotRead,
  isDuplicateKey,
  normalizeRow,
  normalizeRows,
  type PostRow,
  type PostTable,
  type Queryable,
} from '../../db';

/** Shared access to the three post tables (events, venues, organizers). */

const POST_TYPE: Record<PostTable, string> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
};

/** Allocates an id in the id space shared by events, venues, organizers and images. */
export async function allocateId(q: Queryable, type: string): Promise<number> {
  const [id] = await q('post_ids').insert({ type });
  if (typeof id !== 'number') throw new Error('post id allocation returned no id');
  return id;
}

const BY_IDS: Record<PostTable, HotRead> = {
  events: new HotRead((q, ids) => q('events').whereIn('id', ids)),
  venues: new HotRead((q, ids) => q('venues').whereIn('id', ids)),
  organizers: new HotRead((q, ids) => q('organizers').whereIn('id', ids)),
};

export async function findByIds<T extends PostRow>(
  q: Queryable,
  table: PostTable,
  ids: readonly number[],
): Promise<T[]> {
  if (ids.length === 0) return [];
  return normalizeRows<T>(await BY_IDS[table].run(q, ids));
}

/** `forUpdate`: lock the row until the transaction `q` ends (writes read what they change so). */
export async function findById<T extends PostRow>(
  q: Queryable,
  table: PostTable,
  id: number,
  forUpdate = false,
): Promise<T | undefined> {
  const query = q(table).where({ id });
  const row = await (forUpdate ? query.forUpdate() : query).first();
  return row ? normalizeRow<T>(row) : undefined;
}

export async function findBySlug<T extends PostRow>(
  q: Queryable,
  table: PostTable,
  slug: string,
  forUpdate = false,
): Promise<T | undefined> {
  const query = q(table).where({ slug });
  const row = await (forUpdate ? query.forUpdate() : query).first();
  return row ? normalizeRow<T>(row) : undefined;
}

/** Slugs of `table` equal to `base` or starting with `base-`, for uniqueness suffixes. */
export async function slugsLike(
  q: Queryable,
  table: PostTable,
  base: string,
  exceptId?: number,
): Promise<string[]> {
  // The range [base, base.) holds `base` and every `base-…`, and lets SQLite read the slug index
  // (its LIKE is case-insensitive, so it cannot: a scan of the table at each create, ~10 ms at
  // 100,000 events); the condition inside keeps exactly the two forms.
  const query = q(table)
    .select('slug')
    .where('slug', '>=', base)
    .where('slug', '<', `${base}.`)
    .where((w) =>
      w.where('slug', base).orWhere('slug', 'like', `${base.replace(/[\\%_]/g, '\\$&')}-%`),
    );
  if (exceptId !== undefined) query.whereNot('id', exceptId);
  return (await query).map((r: { slug: string }) => r.slug);
}

/**
 * Inserts a record under a freshly allocated id with the slug it asks for (`values.slug`) or,
 * when the unique index refuses that one, the first free `slug-2`, `slug-3` … — the slug
 * `uniqueSlug` would have chosen, without reading the slugs first when the asked one is free
 * (a create's usual case: one statement fewer). A racer taking the chosen suffix as well fails
 * the transaction, which `transact` runs again (src/db/retry.ts). Returns the id and the slug.
 */
export async function insertPost(
  q: Queryable,
  table: PostTable,
  values: Record<string, unknown> & { slug: string },
): Promise<{ id: number; slug: string }> {
  const id = await allocateId(q, POST_TYPE[table]);
  try {
    await q(table).insert({ ...values, id });
    return { id, slug: values.slug };
  } catch (error) {
    // The refused statement alone is undone (both databases): the transaction goes on.
    if (!isDuplicateKey(error)) throw error;
  }
  const slug = firstFreeSlug(values.slug, await slugsLike(q, table, values.slug));
  await q(table).insert({ ...values, slug, id });
  return { id, slug };
}

export async function updatePost(
  q: Queryable,
  table: PostTable,
  id: number,
  values: Record<string, unknown>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await q(table).where({ id }).update(values);
}

/** Permanent deletion: the row, then its id allocation. */
export async function deletePost(q: Queryable, table: PostTable, id: number): Promise<void> {
  await q(table).where({ id }).delete();
  await q('post_ids').where({ id }).delete();
}
