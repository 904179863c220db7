import type { Knex } from 'knex';
import type { Queryable } from '../../db';
import {
  compareKeys,
  orderByKeys,
  selectKeys,
  takeKeys,
  whereBeyond,
  type KeyColumn,
  type KeyValue,
  type SortKey,
} from '../../posts';
import { selectWithVenue, splitVenues, type EventsRead } from './event-reads';
import { applyFilter, type EventListFilter } from './event-list';

/** The SQL of event connections: keyset pages of the events list's filter, in any order. */

export type EventOrderField = 'START' | 'END' | 'TITLE' | 'MODIFIED' | 'ID';

/** The key of each sort field. START is the list's order (local wall clock, then id). */
const COLUMNS: Record<EventOrderField, Omit<KeyColumn, 'desc'>> = {
  START: { sql: 'events.start_date' },
  END: { sql: 'events.end_date' },
  // Case-insensitive and byte-compared: the same order on SQLite and MySQL (posts/store/keyset.ts).
  TITLE: { sql: 'lower(events.title)', text: true },
  MODIFIED: { sql: 'events.modified_utc' },
  ID: { sql: 'events.id', numeric: true },
};

export function eventKeyColumns(keys: readonly SortKey<EventOrderField>[]): KeyColumn[] {
  return keys.map((k) => ({ ...COLUMNS[k.field], desc: k.desc }));
}

/** Where a page starts and which way it walks. */
export interface EventSeekFrom {
  cursor: readonly KeyValue[] | null;
  backward: boolean;
}

/**
 * One page (`limit` rows, in walk order): its ids first, filtered, sought past the cursor and
 * ordered, as `eventPageQuery` reads the list's pages; then those rows with their venues and
 * their keys.
 */
function keysetQuery(
  q: Queryable,
  f: EventListFilter,
  keys: readonly KeyColumn[],
  from: EventSeekFrom,
  limit: number,
): Knex.QueryBuilder {
  const ids = q('events').select('events.id');
  applyFilter(q, ids, f, 'page');
  if (from.cursor) whereBeyond(q, ids, keys, from.cursor, from.backward);
  orderByKeys(q, ids, keys, from.backward).limit(limit);
  const rows = selectWithVenue(q('events').join(ids.as('page'), 'page.id', 'events.id'));
  selectKeys(q, rows, keys);
  return orderByKeys(q, rows, keys, from.backward);
}

export interface KeyedEvents {
  read: EventsRead;
  /** The key of each of `read.events`, in the same order. */
  keys: KeyValue[][];
}

function keyed(raws: Record<string, unknown>[], keys: readonly KeyColumn[]): KeyedEvents {
  const split = takeKeys(raws, keys);
  return { read: splitVenues(split.map((s) => s.raw)), keys: split.map((s) => s.key) };
}

export async function findEventKeysetPage(
  q: Queryable,
  f: EventListFilter,
  keys: readonly KeyColumn[],
  from: EventSeekFrom,
  limit: number,
): Promise<KeyedEvents> {
  return keyed(await keysetQuery(q, f, keys, from, limit), keys);
}

/** Compound selects per statement (SQLite allows 500; see event-groups.ts). */
const UNION_PARTS = 100;
const PART = 'group__part';

/**
 * A page of each filter (the nested connections of many parents: same keys, direction and
 * size, each its own cursor) in one statement per `UNION_PARTS`: each part is the very query of
 * `findEventKeysetPage`, as a derived table. The parts are put back in walk order here.
 */
export async function findEventKeysetPagesOfEach(
  q: Queryable,
  parts: readonly { filter: EventListFilter; cursor: readonly KeyValue[] | null }[],
  keys: readonly KeyColumn[],
  backward: boolean,
  limit: number,
): Promise<KeyedEvents[]> {
  const walk = keys.map((k) => k.desc !== backward);
  const out: KeyedEvents[] = [];
  for (let start = 0; start < parts.length; start += UNION_PARTS) {
    const chunk = parts.slice(start, start + UNION_PARTS);
    const selects = chunk.map((p, i) =>
      q(
        keysetQuery(q, p.filter, keys, { cursor: p.cursor, backward }, limit)
          // `i` is ours, a small integer: a literal, so every part compiles alike.
          .select(q.raw(`${i} as ${PART}`))
          .as(`part${i}`),
      ).select('*'),
    );
    const rows = (await selects[0]!.unionAll(selects.slice(1))) as Record<string, unknown>[];
    const byPart = chunk.map((): Record<string, unknown>[] => []);
    for (const { [PART]: part, ...row } of rows) byPart[Number(part)]!.push(row);
    for (const raws of byPart) {
      const split = takeKeys(raws, keys).sort((a, b) => compareKeys(a.key, b.key, walk));
      out.push({ read: splitVenues(split.map((s) => s.raw)), keys: split.map((s) => s.key) });
    }
  }
  return out;
}
