import type { Knex } from 'knex';

/** A Knex instance or an open transaction: repositories accept either. */
export type Queryable = Knex | Knex.Transaction;

const BOOLEAN_COLUMNS = new Set([
  'all_day',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
]);
const NUMBER_COLUMNS = new Set(['geo_lat', 'geo_lng', 'count', 'width', 'height']);

/** Drivers differ: MySQL gives booleans as 0/1 and decimals as strings; make rows uniform. */
export function normalizeRow<T>(raw: Record<string, unknown>): T {
  const row: Record<string, unknown> = { ...raw };
  for (const [key, value] of Object.entries(row)) {
    if (BOOLEAN_COLUMNS.has(key)) row[key] = value === true || value === 1 || value === '1';
    else if (NUMBER_COLUMNS.has(key) && value !== null && value !== undefined)
      row[key] = Number(value);
  }
  return row as T;
}

export function normalizeRows<T>(raws: Record<string, unknown>[]): T[] {
  return raws.map((r) => normalizeRow<T>(r));
}
