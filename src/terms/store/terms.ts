import {
  HotRead,
  normalizeRow,
  normalizeRows,
  type Queryable,
  type Taxonomy,
  type TermRow,
} from '../../db';

/** Reads and writes of single terms (categories and tags share the `terms` table). */

/** `LIKE` patterns escape with `!`: a backslash escape is not portable between MySQL and SQLite. */
export function likeEscape(text: string): string {
  return text.replace(/[!%_]/g, '!$&');
}

const BY_IDS = new HotRead((q, ids) => q('terms').whereIn('id', ids));

export async function findTermsByIds(q: Queryable, ids: readonly number[]): Promise<TermRow[]> {
  if (ids.length === 0) return [];
  return normalizeRows<TermRow>(await BY_IDS.run(q, ids));
}

export async function findTermById(q: Queryable, id: number): Promise<TermRow | undefined> {
  const row = await q('terms').where({ id }).first();
  return row ? normalizeRow<TermRow>(row) : undefined;
}

/** The term with this id, only when it belongs to `taxonomy`. */
export async function findTermOf(
  q: Queryable,
  taxonomy: Taxonomy,
  id: number,
  forUpdate = false,
): Promise<TermRow | undefined> {
  const query = q('terms').where({ id, taxonomy });
  const row = await (forUpdate ? query.forUpdate() : query).first();
  return row ? normalizeRow<TermRow>(row) : undefined;
}

/** Which of `ids` are terms of `taxonomy`. */
export async function existingTermIds(
  q: Queryable,
  taxonomy: Taxonomy,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows: { id: number }[] = await q('terms')
    .select('id')
    .where({ taxonomy })
    .whereIn('id', [...new Set(ids)]);
  return new Set(rows.map((r) => Number(r.id)));
}

/** Terms whose slug is one of `keys` or whose name matches one of them case-insensitively. */
export async function findTermsBySlugOrName(
  q: Queryable,
  taxonomy: Taxonomy,
  keys: readonly string[],
): Promise<TermRow[]> {
  if (keys.length === 0) return [];
  const lowered = [...new Set(keys.map((k) => k.toLowerCase()))];
  const rows = await q('terms')
    .where({ taxonomy })
    .where((w) =>
      w
        .whereIn('slug', lowered)
        .orWhereRaw(`LOWER(name) IN (${lowered.map(() => '?').join(', ')})`, lowered),
    )
    .orderBy('id');
  return normalizeRows<TermRow>(rows);
}

/** Direct children of each parent, by name then id. */
export async function findChildren(q: Queryable, parentIds: readonly number[]): Promise<TermRow[]> {
  if (parentIds.length === 0) return [];
  const rows = await q('terms')
    .whereIn('parent_id', parentIds)
    .orderByRaw('LOWER(name) asc, name asc, id asc');
  return normalizeRows<TermRow>(rows);
}

/** Slugs of `taxonomy` equal to `base` or starting with `base-`, for uniqueness suffixes. */
export async function termSlugsLike(
  q: Queryable,
  taxonomy: Taxonomy,
  base: string,
  exceptId?: number,
): Promise<string[]> {
  const query = q('terms')
    .select('slug')
    .where({ taxonomy })
    .where((w) =>
      w.where('slug', base).orWhereRaw("slug LIKE ? ESCAPE '!'", [`${likeEscape(base)}-%`]),
    );
  if (exceptId !== undefined) query.whereNot('id', exceptId);
  return (await query).map((r: { slug: string }) => r.slug);
}

/**
 * Is `name` (case-insensitive) already used in `taxonomy` under the same parent? WordPress's
 * `term_exists` rule: the same name may live under different parents.
 */
export async function termNameTaken(
  q: Queryable,
  taxonomy: Taxonomy,
  name: string,
  parentId: number | null,
  exceptId?: number,
): Promise<boolean> {
  const query = q('terms')
    .select('id')
    .where({ taxonomy })
    .whereRaw('LOWER(name) = ?', [name.toLowerCase()]);
  if (parentId === null) query.whereNull('parent_id');
  else query.where('parent_id', parentId);
  if (exceptId !== undefined) query.whereNot('id', exceptId);
  return (await query.first()) !== undefined;
}

export interface TermValues {
  taxonomy?: Taxonomy;
  name?: string;
  slug?: string;
  description?: string;
  parent_id?: number | null;
}

export async function insertTerm(q: Queryable, values: TermValues): Promise<number> {
  const [id] = await q('terms').insert({ description: '', count: 0, ...values });
  if (typeof id !== 'number') throw new Error('term insert returned no id');
  return id;
}

export async function updateTermRow(q: Queryable, id: number, values: TermValues): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await q('terms').where({ id }).update(values);
}

/** Deletes permanently; the foreign keys unlink events and lift children to the top level. */
export async function deleteTermRow(q: Queryable, id: number): Promise<void> {
  await q('terms').where({ id }).delete();
}

/**
 * Locks these term rows until the transaction `q` ends, in ascending id order, and returns them
 * as they are now (a locking read sees the latest committed rows).
 */
export async function lockTerms(q: Queryable, ids: readonly number[]): Promise<TermRow[]> {
  if (ids.length === 0) return [];
  const sorted = [...new Set(ids)].sort((x, y) => x - y);
  return normalizeRows<TermRow>(await q('terms').whereIn('id', sorted).orderBy('id').forUpdate());
}

/** Adds one to (or takes one from) the counts of these terms; a count never goes below zero. */
export async function shiftTermCounts(
  q: Queryable,
  ids: readonly number[],
  delta: 1 | -1,
): Promise<void> {
  if (ids.length === 0) return;
  const count =
    delta > 0
      ? q.raw('?? + 1', ['count'])
      : q.raw('CASE WHEN ?? > 0 THEN ?? - 1 ELSE 0 END', ['count', 'count']);
  await q('terms')
    .whereIn('id', [...ids])
    .update({ count });
}

/** Recomputes `count` (events with status `publish` linked to the term) in one statement. */
export async function recountTerms(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await q('terms')
    .whereIn('id', [...new Set(ids)])
    .update({
      count: q.raw(
        `(SELECT COUNT(*) FROM event_terms
            JOIN events ON events.id = event_terms.event_id
           WHERE event_terms.term_id = terms.id AND events.status = 'publish')`,
      ),
    });
}
