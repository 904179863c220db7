import type { Config } from '../config';
import { invalid } from '../lib';
import { decodeCursor, encodeCursor, type KeyValue } from './cursor';

/**
 * Relay cursor connections over keyset pages, for every kind of record: the paging arguments
 * (`first/after/last/before`), the sort keys (`order_by`, the id always last) and the page an
 * answer holds. Each domain supplies the rows, read past the cursor in SQL (`store/keyset.ts`)
 * or, for the few links of one record, in memory (`connectionFromList`).
 */

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** One `order_by` item as the SDL's inputs give it. */
export interface OrderInput<F extends string> {
  field: F;
  direction?: 'ASC' | 'DESC' | null;
}

export interface SortKey<F extends string> {
  field: F;
  desc: boolean;
}

/**
 * The sort keys of an `order_by`: the given ones (or `fallback`), cut after `id` (later keys
 * could never decide) and ending with `id` in the first key's direction, so the order is total.
 */
export function sortKeys<F extends string>(
  asked: readonly OrderInput<F>[] | null | undefined,
  fallback: F,
  id: F,
): SortKey<F>[] {
  const given = asked?.length ? asked : [{ field: fallback, direction: 'ASC' as const }];
  const keys: SortKey<F>[] = [];
  for (const item of given) {
    if (keys.some((k) => k.field === item.field)) {
      throw invalid('order_by', `names ${item.field} twice`);
    }
    keys.push({ field: item.field, desc: item.direction === 'DESC' });
    if (item.field === id) return keys;
  }
  keys.push({ field: id, desc: keys[0]!.desc });
  return keys;
}

/** The order a cursor belongs to: the kind of record and its sort keys. */
export function orderTag(kind: string, keys: readonly SortKey<string>[]): string {
  return `${kind}:${keys.map((k) => `${k.field}.${k.desc ? 'DESC' : 'ASC'}`).join(',')}`;
}

/** What one page reads: `limit` rows past `cursor`, walking backwards for `last`. */
export interface ConnectionWindow {
  limit: number;
  /** The key of the `after` (forwards) or `before` (backwards) record; null: from the end. */
  cursor: KeyValue[] | null;
  backward: boolean;
  tag: string;
}

function pageSize(config: Config, name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > config.perPageMax) {
    throw invalid(name, `must be an integer from 0 to ${config.perPageMax}`);
  }
  return value;
}

/**
 * Validates the paging arguments and decodes the cursor (`numeric`: which values of the order's
 * key are numbers, one flag per key).
 */
export function connectionWindow(
  config: Config,
  args: ConnectionArgs,
  tag: string,
  numeric: readonly boolean[],
): ConnectionWindow {
  const has = (v: unknown): boolean => v !== null && v !== undefined;
  if (has(args.first) && has(args.last)) throw invalid('last', 'cannot be given with first');
  if (has(args.after) && has(args.before)) throw invalid('before', 'cannot be given with after');
  if (has(args.after) && has(args.last)) throw invalid('after', 'pages forwards: use first');
  if (has(args.before) && has(args.first)) throw invalid('before', 'pages backwards: use last');
  const backward = has(args.last) || has(args.before);
  const limit = has(args.first)
    ? pageSize(config, 'first', args.first!)
    : has(args.last)
      ? pageSize(config, 'last', args.last!)
      : config.perPageDefault;
  const param = backward ? 'before' : 'after';
  const raw = backward ? args.before : args.after;
  const cursor = has(raw) ? decodeCursor(param, raw!, tag, numeric) : null;
  return { limit, cursor, backward, tag };
}

export interface PageInfo {
  has_next_page: boolean;
  has_previous_page: boolean;
  start_cursor: string | null;
  end_cursor: string | null;
}

export interface Edge<Row> {
  cursor: string;
  node: Row;
}

/** One page of a connection; `count` runs the total's statement when `total_count` is asked. */
export interface Connection<Row> {
  edges: Edge<Row>[];
  page_info: PageInfo;
  count: () => Promise<number>;
}

/** A row read with its sort key. */
export interface Keyed<Row> {
  row: Row;
  key: KeyValue[];
}

function once(count: () => Promise<number>): () => Promise<number> {
  let total: Promise<number> | undefined;
  return () => (total ??= count());
}

/**
 * The page of `fetched` (up to `limit + 1` rows in walk order: the extra one only tells that
 * more follow). Forwards, `has_previous_page` is true when a cursor was given (Relay's allowed
 * shortcut); backwards, `has_next_page` likewise.
 */
export function connectionOf<Row>(
  fetched: readonly Keyed<Row>[],
  w: ConnectionWindow,
  count: () => Promise<number>,
): Connection<Row> {
  const more = fetched.length > w.limit;
  const page = fetched.slice(0, w.limit);
  if (w.backward) page.reverse();
  const edges = page.map(({ row, key }) => ({ cursor: encodeCursor(w.tag, key), node: row }));
  return {
    edges,
    page_info: {
      has_next_page: w.backward ? w.cursor !== null : more,
      has_previous_page: w.backward ? more : w.cursor !== null,
      start_cursor: edges[0]?.cursor ?? null,
      end_cursor: edges[edges.length - 1]?.cursor ?? null,
    },
    count: once(count),
  };
}

/** An empty connection (a record whose links are hidden). */
export function emptyConnection<Row>(): Connection<Row> {
  return {
    edges: [],
    page_info: {
      has_next_page: false,
      has_previous_page: false,
      start_cursor: null,
      end_cursor: null,
    },
    count: () => Promise.resolve(0),
  };
}

/**
 * Sort values compared as the SQL keysets compare them: null before any value; text by the
 * bytes of its UTF-8 (code-point order); numbers as numbers.
 */
function compareValue(a: KeyValue, b: KeyValue): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/** Compares two keys under the directions `desc` (one per value). */
export function compareKeys(
  a: readonly KeyValue[],
  b: readonly KeyValue[],
  desc: readonly boolean[],
): number {
  for (let i = 0; i < desc.length; i++) {
    const c = compareValue(a[i] ?? null, b[i] ?? null);
    if (c !== 0) return desc[i] ? -c : c;
  }
  return 0;
}

/**
 * A connection over a short list already in memory (the organizers or terms of one event, read
 * for a whole page by a loader): sorted and cut past the cursor here, as SQL does elsewhere.
 */
export function connectionFromList<Row>(
  rows: readonly Row[],
  keyOf: (row: Row) => KeyValue[],
  desc: readonly boolean[],
  w: ConnectionWindow,
): Connection<Row> {
  const walk = w.backward ? desc.map((d) => !d) : desc;
  const keyed = rows
    .map((row) => ({ row, key: keyOf(row) }))
    .sort((a, b) => compareKeys(a.key, b.key, walk))
    .filter(({ key }) => w.cursor === null || compareKeys(key, w.cursor, walk) > 0);
  return connectionOf(keyed.slice(0, w.limit + 1), w, () => Promise.resolve(rows.length));
}
