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

export function rowReader(fields: FieldMap): (raw: Row) => Row {
  const id = JSON.stringify(fields);
  let reader = compiled.get(id);
  if (reader === undefined) {
    reader = compile(fields);
    if (compiled.size < MAX_READERS) compiled.set(id, reader);
  }
  return reader;
}

function compile(fields: FieldMap): (raw: Row) => Row {
  // Names are quoted by JSON.stringify: whatever a column is called, it stays a string key.
  const properties = fields.map(([field, column]) => {
    const value = `r[${JSON.stringify(column)}]`;
    const converted = BOOLEAN_COLUMNS.has(field)
      ? `b(${value})`
      : NUMBER_COLUMNS.has(field)
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
