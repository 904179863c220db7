import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLEnumType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
} from 'graphql';
import { invalid } from '../lib';

/**
 * Turns loosely typed REST parameter values (query strings, form fields, JSON) into values of the
 * GraphQL argument or input field they feed (docs/contract.md §3). Every conversion is decided by
 * the GraphQL type, so a new argument in the SDL needs no code here:
 *
 * - Int: JSON integers and decimal strings; Float: JSON numbers and numeric strings;
 * - Boolean: JSON booleans, `true`/`false`/`1`/`0` (any case), the numbers 1 and 0;
 * - String: strings, and numbers as their decimal text; enums: their value names (`order` and
 *   `orderby` values in any case); JSON: passed through;
 * - lists: arrays, CSV strings (spaces around commas ignored), or a single value;
 * - input objects: objects (unknown keys ignored); an input object with an `id` field also
 *   accepts a bare id (`venue=12`), and for a nullable one `0`, `""` and `[]` mean none.
 *
 * Explicit nulls stay null. Inside input objects "" on a number field means null (clears it).
 * Anything else is a 400 `rest_invalid_param` naming the parameter.
 */

/** A value that does not fit; `reason` completes "<name> …". */
class Misfit extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const INT_MAX = 2 ** 31 - 1;
const CASE_INSENSITIVE_ENUMS = new Set(['SortOrder', 'TermOrderBy']);

/**
 * Coerces the REST parameter `name` to `type`; throws `InvalidParamError` when it does not fit.
 * `field`: the parameter is a field of a write's input (where "" on a number clears it).
 */
export function coerceParam(
  name: string,
  raw: unknown,
  type: GraphQLInputType,
  options: { field?: boolean } = {},
): unknown {
  try {
    const value = name === 'per_page' && !options.field ? boundedPerPage(raw) : raw;
    return coerce(value, type, { inInput: options.field ?? false });
  } catch (err) {
    if (err instanceof Misfit) throw invalid(name, `${name} ${err.reason}`);
    throw err;
  }
}

/** A number, or a string of decimal digits read as one (NaN otherwise). */
function integerValue(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  return typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
}

/**
 * The one `per_page` rule of every list (docs/contract.md §5 "Paging"): a positive integer, and
 * any value above PER_PAGE_MAX is capped, however large. An integer too large for a GraphQL Int
 * becomes the largest Int (the list then caps it like 999999), one too small the smallest (a 400
 * like -1), so `per_page=2147483648` and `per_page=999999` answer alike. The REST routes apply
 * it here, the SOFA view to its query string (sofa.ts); anything else is left to the coercion.
 */
export function boundedPerPage<T>(raw: T): T | number {
  const n = integerValue(raw);
  // Digits beyond a double's range read as Infinity: still an integer too large.
  const integral = Number.isInteger(n) || Math.abs(n) === Infinity;
  return integral && Math.abs(n) > INT_MAX ? Math.sign(n) * INT_MAX : raw;
}

interface Where {
  /** Inside an input object, where "" on a number means null. */
  inInput: boolean;
  /** Path inside the parameter, for messages: `city`, `0.organizer`. */
  path?: string;
}

function at(where: Where, key: string | number): Where {
  return { inInput: true, path: where.path === undefined ? String(key) : `${where.path}.${key}` };
}

function fail(where: Where, reason: string): never {
  throw new Misfit(where.path === undefined ? reason : `(${where.path}) ${reason}`);
}

function coerce(raw: unknown, type: GraphQLInputType, where: Where): unknown {
  if (isNonNullType(type)) {
    if (raw === null || raw === undefined) fail(where, 'must not be null.');
    return coerce(raw, type.ofType, where);
  }
  if (raw === null || raw === undefined) return null;
  if (isListType(type)) {
    return listOf(raw, type.ofType).map((item, i) =>
      coerce(item, type.ofType, where.path === undefined && !where.inInput ? where : at(where, i)),
    );
  }
  if (isInputObjectType(type)) return inputObject(raw, type, where);
  if (isEnumType(type)) return enumValue(raw, type, where);
  switch (type.name) {
    case 'Int':
      return integer(raw, where);
    case 'Float':
      return float(raw, where);
    case 'Boolean':
      return boolean(raw, where);
    case 'String':
    case 'ID':
      return string(raw, where);
    default:
      return raw; // JSON and other custom scalars validate themselves
  }
}

/** Values that stand for "no linked record" in a list of records (`organizer: 0`). */
const NONE = new Set<unknown>(['', 0, '0']);

/** Arrays as they are; CSV strings split; anything else is a one-item list. */
function listOf(raw: unknown, itemType: GraphQLInputType): unknown[] {
  if (isInputObjectType(getNamedType(itemType))) {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
    return items
      .map((item) => (typeof item === 'string' ? item.trim() : item))
      .filter((item) => !NONE.has(item));
  }
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'string') {
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  if (isPlainObject(raw)) return Object.values(raw); // `a[x]=1&a[y]=2` style keys
  return [raw];
}

function inputObject(raw: unknown, type: GraphQLInputObjectType, where: Where): unknown {
  const fields = type.getFields();
  const idField = fields.id;
  if (isPlainObject(raw)) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) {
      if (Object.prototype.hasOwnProperty.call(raw, key)) {
        out[key] = coerce(raw[key], field.type, at(where, key));
      }
    }
    return out;
  }
  if (idField) {
    if (raw === '' || raw === 0 || raw === '0' || (Array.isArray(raw) && raw.length === 0)) {
      return null;
    }
    if (Array.isArray(raw)) {
      if (raw.length === 1) return inputObject(raw[0], type, where);
      fail(where, 'takes a single value.');
    }
    if (typeof raw === 'number' || (typeof raw === 'string' && /^\s*\d+\s*$/.test(raw))) {
      return { id: integer(raw, where) };
    }
    fail(where, 'must be an id or an object.');
  }
  fail(where, 'must be an object.');
}

function enumValue(raw: unknown, type: GraphQLEnumType, where: Where): string {
  const names = type.getValues().map((v) => v.name);
  let value = typeof raw === 'string' ? raw.trim() : raw;
  if (typeof value === 'string' && CASE_INSENSITIVE_ENUMS.has(type.name)) {
    value = value.toLowerCase();
  }
  if (typeof value !== 'string' || !names.includes(value)) {
    fail(where, `must be one of: ${names.join(', ')}.`);
  }
  return value;
}

function integer(raw: unknown, where: Where): number | null {
  if (where.inInput && raw === '') return null;
  const n = integerValue(raw);
  if (!Number.isInteger(n)) fail(where, 'must be an integer.');
  if (Math.abs(n) > INT_MAX) fail(where, 'is out of range.');
  return n;
}

function float(raw: unknown, where: Where): number | null {
  if (where.inInput && raw === '') return null;
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(raw)
        ? Number(raw)
        : NaN;
  if (!Number.isFinite(n)) fail(where, 'must be a number.');
  return n;
}

function boolean(raw: unknown, where: Where): boolean {
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw === 'string') {
    const v = raw.trim().toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
  }
  fail(where, 'must be a boolean: true, false, 1 or 0.');
}

function string(raw: unknown, where: Where): string {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  fail(where, 'must be a string.');
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
