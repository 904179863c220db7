import type { Queryable } from '../../../db';
import type { StarRelation } from '../relations';

/**
 * SQL of the Parquet export: one keyset page of a star relation, the rows after `after` (the
 * last row's key values; null for the first page) in key order. Each page is one bounded query
 * whatever the relation's size: no OFFSET, no cursor left open between pages.
 */
export async function starPage(
  q: Queryable,
  relation: StarRelation,
  after: readonly unknown[] | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const query = q(relation.name)
    .select(Object.keys(relation.columns))
    .orderBy(relation.key.map((column) => ({ column, order: 'asc' as const })))
    .limit(limit);
  if (after) {
    // (k1, k2) > (a1, a2), spelled out: both dialects turn it into a range on the key's index.
    query.where((outer) => {
      relation.key.forEach((column, i) => {
        outer.orWhere((inner) => {
          relation.key.slice(0, i).forEach((prior, j) => inner.where(prior, after[j] as never));
          inner.where(column, '>', after[i] as never);
        });
      });
    });
  }
  return query;
}
