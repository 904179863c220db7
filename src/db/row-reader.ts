import { BOOLEAN_COLUMNS, NUMBER_COLUMNS } from './queryable';

/**
 * Row readers compiled once per column list: a driver row becomes a new object of a fixed
 * shape in one object literal, with `normalizeRow`'s conversions (booleans, numbers) applied.
 * A page of events was copied key by key three times (dropping the generation column, splitting
 * off the joined venue, normalising), 5–6 % of a list request's CPU; a compiled literal costs a
 * fraction of that and gives every row of a kind the same hidden class for the resolvers.
 */

type Row = Record<string, unknown>;

/** `[field of the new object, column of the driver row]`, in the new object's key order. */
export type FieldMap = readonly (readonly [field: string, column: string])[];

const asBoolean = (v: unknown): boolean => v === true || v === 1 || v === '1';
const asNumber = (v: unknown): unknown => (v === null || v === undefined ? v : Number(v));

/** Readers kept by their field map; the maps come from a few fixed column lists. */
const compiled = new Map<string, (raw: Row) => Row>();
const MAX_READERS = 100;

const NONE: ReadonlySet<string> = new Set();

/**
 * `numbers`: more fields to read as numbers (null kept), for statements whose integer columns
 * the driver answers as text (a UNION of a column with NULL is typed as a decimal by MariaDB).
 */
export function rowReader(
  fields: FieldMap,
  numbers: ReadonlySet<string> = NONE,
): (raw: Row) => Row {
  const id = JSON.stringify([fields, [...numbers]]);
  let reader = compiled.get(id);
  if (reader === undefined) {
    reader = compile(fields, numbers);
    if (compiled.size < MAX_READERS) compiled.set(id, reader);
  }
  return reader;
}

/**
 * Rows as plain reads give them, from driver rows that may carry columns a read added for itself
 * (`__list_generation`, src/db/list-counts.ts): those are left out, the rest normalised.
 */
export function plainRows<T>(raws: readonly Row[]): T[] {
  if (raws.length === 0) return [];
  const keys = Object.keys(raws[0]!);
  const columns = keys.join(',');
  let read = byColumns.get(columns);
  if (read === undefined) {
    read = rowReader(keys.filter((k) => !k.startsWith('__')).map((k) => [k, k] as const));
    if (byColumns.size < MAX_READERS) byColumns.set(columns, read);
  }
  return raws.map((raw) => read(raw) as T);
}

/** `plainRows`' readers by the driver rows' column list (no field map to serialise per call). */
const byColumns = new Map<string, (raw: Row) => Row>();

function compile(fields: FieldMap, numbers: ReadonlySet<string>): (raw: Row) => Row {
  // Names are quoted by JSON.stringify: whatever a column is called, it stays a string key.
  const properties = fields.map(([field, column]) => {
    const value = `r[${JSON.stringify(column)}]`;
    const converted = BOOLEAN_COLUMNS.has(field)
      ? `b(${value})`
      : NUMBER_COLUMNS.has(field) || numbers.has(field)
        ? `n(${value})`
        : value;
    return `${JSON.stringify(field)}: ${converted}`;
  });
  const factory = new Function('b', 'n', `return (r) => ({ ${properties.join(', ')} });`) as (
    b: typeof asBoolean,
    n: typeof asNumber,
  ) => (raw: Row) => Row;
  return factory(asBoolean, asNumber);
}
