import { normalizeRow, type PostRow, type Queryable } from '../../db';
import {
  orderByKeys,
  selectKeys,
  takeKeys,
  whereBeyond,
  type KeyColumn,
  type Keyed,
  type KeyValue,
  type SortKey,
} from '../../posts';
import { filtered, type LinkedListFilter, type LinkedTable } from './linked-post-list';

/** The SQL of venue and organizer connections: keyset pages of their lists' filter. */

export type PlaceOrderField = 'NAME' | 'MODIFIED' | 'ID';

export function placeKeyColumns(
  table: LinkedTable,
  keys: readonly SortKey<PlaceOrderField>[],
): KeyColumn[] {
  return keys.map((k) => {
    switch (k.field) {
      case 'NAME':
        // Byte-compared lowercase: the same order on SQLite and MySQL (posts/store/keyset.ts).
        return { sql: `lower(${table}.title)`, text: true, desc: k.desc };
      case 'MODIFIED':
        return { sql: `${table}.modified_utc`, desc: k.desc };
      case 'ID':
        return { sql: `${table}.id`, numeric: true, desc: k.desc };
    }
  });
}

/** Up to `limit` rows of the filter strictly past `cursor`, in walk order, with their keys. */
export async function findLinkedKeysetPage<T extends PostRow>(
  q: Queryable,
  table: LinkedTable,
  filter: LinkedListFilter,
  keys: readonly KeyColumn[],
  from: { cursor: readonly KeyValue[] | null; backward: boolean },
  limit: number,
): Promise<Keyed<T>[]> {
  const query = filtered(q, table, filter).select(`${table}.*`);
  selectKeys(q, query, keys);
  if (from.cursor) whereBeyond(q, query, keys, from.cursor, from.backward);
  orderByKeys(q, query, keys, from.backward).limit(limit);
  const rows = takeKeys((await query) as Record<string, unknown>[], keys);
  return rows.map(({ raw, key }) => ({ row: normalizeRow<T>(raw), key }));
}
