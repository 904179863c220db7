import { invalid } from '../lib';

/**
 * Opaque keyset cursors: base64url of `{o, k}`, the order they belong to (`event:START.ASC,…`)
 * and the sort key of one record, its id last. A cursor of another order or kind is refused:
 * its key would seek a position that means nothing in this order.
 */

/** One value of a sort key as the database returns it (text, date text, number) or null. */
export type KeyValue = string | number | null;

export function encodeCursor(order: string, key: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify({ o: order, k: key }), 'utf8').toString('base64url');
}

/** Each value of the type of its key (`numeric`: one flag per key, the id last), or null. */
function isKey(value: unknown, numeric: readonly boolean[]): value is KeyValue[] {
  return (
    Array.isArray(value) &&
    value.length === numeric.length &&
    value.every((v, i) =>
      v === null ? i < numeric.length - 1 : numeric[i] ? Number.isFinite(v) : typeof v === 'string',
    ) &&
    Number.isInteger(value[numeric.length - 1])
  );
}

/**
 * The key a cursor carries, or BAD_USER_INPUT naming `param`. `numeric`: which values of the
 * key are numbers (the others are text), so a forged cursor cannot compare text with a number.
 */
export function decodeCursor(
  param: string,
  cursor: string,
  order: string,
  numeric: readonly boolean[],
): KeyValue[] {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid(param, 'is not a cursor of this connection');
  }
  const { o, k } = (parsed ?? {}) as { o?: unknown; k?: unknown };
  if (o !== order) throw invalid(param, 'is a cursor of another connection or order');
  if (!isKey(k, numeric)) throw invalid(param, 'is not a cursor of this connection');
  return k;
}
