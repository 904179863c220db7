import type { Knex } from 'knex';

/**
 * A Knex instance or an open transaction (Knex's, or `beginTransaction`'s in transaction.ts):
 * repositories accept either, and use of it only tables, raw statements and its client.
 */
export interface Queryable {
  (tableName: Knex.TableDescriptor | Knex.AliasDict): Knex.QueryBuilder;
  raw: Knex.RawBuilder;
  readonly client: Knex.Client;
  /** True inside a transaction. */
  readonly isTransaction?: boolean;
}

/** Columns drivers answer as 0/1 (MySQL) that rows carry as booleans. */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set([
  'all_day',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
]);
/** Columns MySQL answers as text (decimals) that rows carry as numbers. */
export const NUMBER_COLUMNS: ReadonlySet<string> = new Set([
  'geo_lat',
  'geo_lng',
  'count',
  'width',
  'height',
]);

/**
 * Drivers differ: MySQL gives booleans as 0/1 and decimals as strings; make rows uniform. The
 * driver's row object is fresh and ours, so it is converted in place (no copy per row).
 */
export function normalizeRow<T>(raw: Record<string, unknown>): T {
  for (const key in raw) {
    const value = raw[key];
    if (BOOLEAN_COLUMNS.has(key)) raw[key] = value === true || value === 1 || value === '1';
    else if (NUMBER_COLUMNS.has(key) && value !== null && value !== undefined) {
      raw[key] = Number(value);
    }
  }
  return raw as T;
}

export function normalizeRows<T>(raws: Record<string, unknown>[]): T[] {
  for (const raw of raws) normalizeRow(raw);
  return raws as T[];
}
