import type { AppContext } from '../context';
import { firstFreeSlug } from '../lib';
import type { Queryable, Taxonomy, TermRow } from '../db';
import {
  existingTermIds,
  findTermsBySlugOrName,
  insertTerm,
  lockTerms,
  recountTerms,
  shiftTermCounts,
  termSlugsLike,
} from './store/terms';
import { assertKnownTermIds, checkNewTermName, termSlugBase } from './rules';

/** Terms as event writes use them: resolving ids/slugs/names, and keeping counts right. */

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
  const base = termSlugBase(requested, name, taxonomy);
  return firstFreeSlug(base, await termSlugsLike(q, taxonomy, base, exceptId));
}

/**
 * The existing terms of `taxonomy` that text items name: a slug equal to the item in lower
 * case, else a name equal to it case-insensitively; the lowest id wins when several match.
 * `lower(item) → id`, for the items that name one (one query for all of them).
 */
export async function termIdsByNames(
  q: Queryable,
  taxonomy: Taxonomy,
  items: readonly string[],
): Promise<Map<string, number>> {
  const bySlug = new Map<string, number>();
  const byName = new Map<string, number>();
  for (const row of await findTermsBySlugOrName(q, taxonomy, items)) {
    if (!bySlug.has(row.slug.toLowerCase())) bySlug.set(row.slug.toLowerCase(), row.id);
    if (!byName.has(row.name.toLowerCase())) byName.set(row.name.toLowerCase(), row.id);
  }
  const found = new Map<string, number>();
  for (const item of items) {
    const key = item.toLowerCase();
    const id = bySlug.get(key) ?? byName.get(key);
    if (id !== undefined) found.set(key, id);
  }
  return found;
}

/**
 * Term ids for an event write, in the given order, duplicates dropped: numeric items must be
 * existing term ids of `taxonomy` (else 400 `rest_invalid_param` on `categories`/`tags`);
 * other items name a term (`termIdsByNames`), else create it inside `q` (the caller's
 * transaction: nothing here opens one).
 */
export async function termsForEvent(
  _ctx: AppContext,
  q: Queryable,
  taxonomy: Taxonomy,
  items: readonly string[],
): Promise<number[]> {
  const wanted = items.map((item) => item.trim()).filter((item) => item !== '');
  const isId = (item: string): boolean => /^\d+$/.test(item);

  const numeric = wanted.filter(isId).map(Number);
  assertKnownTermIds(taxonomy, numeric, await existingTermIds(q, taxonomy, numeric));

  const named = await termIdsByNames(
    q,
    taxonomy,
    wanted.filter((item) => !isId(item)),
  );
  const ids: number[] = [];
  for (const item of wanted) {
    if (isId(item)) {
      ids.push(Number(item));
      continue;
    }
    const key = item.toLowerCase();
    let id = named.get(key);
    if (id === undefined) {
      checkNewTermName(taxonomy, item);
      const slug = await uniqueTermSlug(q, taxonomy, null, item);
      id = await insertTerm(q, { taxonomy, name: item, slug, parent_id: null });
      // Later items naming the same new term (by name or by its slug) reuse it.
      named.set(key, id);
      named.set(slug, id);
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
  assertKnownTermIds(taxonomy, numeric, known);
  return [...new Set(numeric)];
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
