import { normalizeRow, type Queryable, type TermRow } from '../../db';
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
import { filtered, type TermFilter } from './term-list';

/** The SQL of category and tag connections: keyset pages of their lists' filter. */

export type TermOrderField = 'NAME' | 'SLUG' | 'COUNT' | 'ID';

const COLUMNS: Record<TermOrderField, Omit<KeyColumn, 'desc'>> = {
  // Byte-compared lowercase: the same order on SQLite and MySQL (posts/store/keyset.ts).
  NAME: { sql: 'lower(terms.name)', text: true },
  SLUG: { sql: 'terms.slug', text: true },
  COUNT: { sql: 'terms.count', numeric: true },
  ID: { sql: 'terms.id', numeric: true },
};

export function termKeyColumns(keys: readonly SortKey<TermOrderField>[]): KeyColumn[] {
  return keys.map((k) => ({ ...COLUMNS[k.field], desc: k.desc }));
}

/** Up to `limit` terms of the filter strictly past `cursor`, in walk order, with their keys. */
export async function findTermKeysetPage(
  q: Queryable,
  filter: TermFilter,
  keys: readonly KeyColumn[],
  from: { cursor: readonly KeyValue[] | null; backward: boolean },
  limit: number,
): Promise<Keyed<TermRow>[]> {
  const query = filtered(q, filter).select('terms.*');
  selectKeys(q, query, keys);
  if (from.cursor) whereBeyond(q, query, keys, from.cursor, from.backward);
  orderByKeys(q, query, keys, from.backward).limit(limit);
  const rows = takeKeys((await query) as Record<string, unknown>[], keys);
  return rows.map(({ raw, key }) => ({ row: normalizeRow<TermRow>(raw), key }));
}

/** The number of terms of the filter (the list's count). */
export async function countTerms(q: Queryable, filter: TermFilter): Promise<number> {
  const counted = await filtered(q, filter).count({ n: '*' }).first();
  return Number((counted as { n?: number | string } | undefined)?.n ?? 0);
}
