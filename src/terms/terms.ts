import type { AppContext } from '../context';
import { invalid } from '../lib/errors';
import { firstFreeSlug, toSlug } from '../lib/slug';
import type { Queryable } from '../db/queryable';
import type { Taxonomy, TermRow } from '../db/rows';
import {
  existingTermIds,
  findTermsBySlugOrName,
  insertTerm,
  lockTerms,
  recountTerms,
  shiftTermCounts,
  termSlugsLike,
} from './store/terms';

/** Terms as event writes use them: resolving ids/slugs/names, and keeping counts right. */

const NAME_MAX = 200;

/**
 * A slug unique within `taxonomy`: from the requested slug, else the name (else the taxonomy,
 * for names with no letters or digits), with `-2`, `-3` … when taken by another term.
 */
export async function uniqueTermSlug(
  q: Queryable,
  taxonomy: Taxonomy,
  requested: string | null,
  name: string,
  exceptId?: number,
): Promise<string> {
  const fromRequest = requested === null ? '' : toSlug(requested);
  if (requested !== null && fromRequest === '')
    throw invalid('slug', 'must contain letters or digits');
  const base = fromRequest || toSlug(name) || taxonomy;
  return firstFreeSlug(base, await termSlugsLike(q, taxonomy, base, exceptId));
}

/**
 * Term ids for an event write, in the given order, duplicates dropped: numeric items must be
 * existing term ids of `taxonomy` (else 400 `rest_invalid_param` on `categories`/`tags`);
 * other items match a slug, then a name (case-insensitive), else create the term inside `q`
 * (the caller's transaction: nothing here opens one).
 */
export async function termsForEvent(
  _ctx: AppContext,
  q: Queryable,
  taxonomy: Taxonomy,
  items: readonly string[],
): Promise<number[]> {
  const field = taxonomy === 'category' ? 'categories' : 'tags';
  const wanted = items.map((item) => item.trim()).filter((item) => item !== '');
  const isId = (item: string): boolean => /^\d+$/.test(item);

  const numeric = wanted.filter(isId).map(Number);
  assertKnownIds(taxonomy, numeric, await existingTermIds(q, taxonomy, numeric));

  // One query finds every existing match; the lowest id wins when several share a name.
  const textual = wanted.filter((item) => !isId(item));
  const bySlug = new Map<string, number>();
  const byName = new Map<string, number>();
  for (const row of await findTermsBySlugOrName(q, taxonomy, textual)) {
    if (!bySlug.has(row.slug.toLowerCase())) bySlug.set(row.slug.toLowerCase(), row.id);
    if (!byName.has(row.name.toLowerCase())) byName.set(row.name.toLowerCase(), row.id);
  }

  const ids: number[] = [];
  for (const item of wanted) {
    if (isId(item)) {
      ids.push(Number(item));
      continue;
    }
    const key = item.toLowerCase();
    let id = bySlug.get(key) ?? byName.get(key);
    if (id === undefined) {
      if (item.length > NAME_MAX)
        throw invalid(field, `a new ${taxonomy} name must be at most ${NAME_MAX} characters`);
      const slug = await uniqueTermSlug(q, taxonomy, null, item);
      id = await insertTerm(q, { taxonomy, name: item, slug, parent_id: null });
      // Later items naming the same new term reuse it instead of creating it twice.
      bySlug.set(slug, id);
      byName.set(key, id);
    }
    ids.push(id);
  }
  return [...new Set(ids)];
}

/** Every item of an event write's `categories`/`tags` is a term id (no slug or name). */
export function onlyTermIds(items: readonly string[]): boolean {
  return items.every((item) => /^\d+$/.test(item.trim()));
}

/**
 * `termsForEvent` for items that are all ids (`onlyTermIds`), checked against `rows`, the terms
 * the write already read (locked, with `lockTermRows`): no query of its own.
 */
export function termIdsAmong(
  taxonomy: Taxonomy,
  items: readonly string[],
  rows: readonly TermRow[],
): number[] {
  const numeric = items.map(Number);
  const known = new Set(rows.filter((r) => r.taxonomy === taxonomy).map((r) => r.id));
  assertKnownIds(taxonomy, numeric, known);
  return [...new Set(numeric)];
}

function assertKnownIds(taxonomy: Taxonomy, ids: readonly number[], known: Set<number>): void {
  const field = taxonomy === 'category' ? 'categories' : 'tags';
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw invalid(field, `unknown ${field} id(s): ${unknown.join(', ')}`);
}

/**
 * Locks these terms until the transaction `q` ends (in id order, so writers never wait for each
 * other in a circle): event writes take it before changing links that move the terms' counts.
 * Returns the locked rows, as they are now.
 */
export async function lockTermRows(q: Queryable, termIds: readonly number[]): Promise<TermRow[]> {
  return lockTerms(q, termIds);
}

/**
 * One event's share of the counts: it counted for `before` and now counts for `after` (each
 * empty when the event is not published), so the terms it left lose one and those it joined
 * gain one. Only the event's own links are read — never other events' rows, which a recount
 * would lock — and the terms must be locked first (`lockTermRows`).
 */
export async function moveTermCounts(
  q: Queryable,
  before: readonly number[],
  after: readonly number[],
): Promise<void> {
  const was = new Set(before);
  const now = new Set(after);
  const joined = [...now].filter((id) => !was.has(id));
  const left = [...was].filter((id) => !now.has(id));
  await shiftTermCounts(q, joined, 1);
  await shiftTermCounts(q, left, -1);
}

/** Recomputes `terms.count` (published events using the term) for these terms, inside `q`. */
export async function refreshTermCounts(q: Queryable, termIds: readonly number[]): Promise<void> {
  await recountTerms(q, termIds);
}
