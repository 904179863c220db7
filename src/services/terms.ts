import type { AppContext } from '../context';
import type { Queryable } from '../repositories/queryable';
import type { Taxonomy } from '../repositories/rows';

/**
 * Term ids for an event write, in the given order, duplicates dropped: numeric items must be
 * existing term ids of `taxonomy` (else 400 `rest_invalid_param` on `categories`/`tags`);
 * other items match a slug, then a name (case-insensitive), else create the term inside `q`.
 * STUB: replaced by the terms work.
 */
export async function termsForEvent(
  _ctx: AppContext,
  _q: Queryable,
  _taxonomy: Taxonomy,
  _items: readonly string[],
): Promise<number[]> {
  throw new Error('not implemented');
}

/** Recomputes `terms.count` (published events using the term) for these terms, inside `q`. STUB. */
export async function refreshTermCounts(_q: Queryable, _termIds: readonly number[]): Promise<void> {
  throw new Error('not implemented');
}
