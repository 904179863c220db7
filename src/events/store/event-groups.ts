import { splitVenues, type EventsRead } from './event-reads';
import { applyFilter, eventPageQuery, type EventListFilter } from './event-list';
import type { Queryable } from '../../db';

/**
 * The nested lists of many parents read together (`Category.events` for every category of a
 * page, …): one statement per level instead of one per parent. Each part of a statement is the
 * very query the single list runs, so the rows and totals are the same.
 */

/**
 * Compound selects per statement when several lists are read at once: SQLite allows 500 terms
 * (SQLITE_MAX_COMPOUND_SELECT); each term also binds its filter's values.
 */
const UNION_PARTS = 100;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The totals of several filters (the nested lists of many parents) in one statement per
 * `UNION_PARTS` filters: each part is the count `countEvents` runs, tagged with its position.
 * Not cached: the batch is already one statement where the cache would spend one.
 */
export async function countEventsOfEach(
  q: Queryable,
  filters: readonly EventListFilter[],
): Promise<number[]> {
  const totals: number[] = [];
  for (const chunk of chunks(filters, UNION_PARTS)) {
    const parts = chunk.map((f, i) => {
      // `i` is ours, a small integer: a literal, so every part compiles alike.
      const query = q('events')
        .select(q.raw(`${i} as part`))
        .count({ total: '*' });
      applyFilter(q, query, f, 'count');
      return query;
    });
    const rows = (await parts[0]!.unionAll(parts.slice(1))) as {
      part: number | string;
      total: number | string;
    }[];
    const byPart = new Map(rows.map((r) => [Number(r.part), Number(r.total)]));
    totals.push(...chunk.map((_, i) => byPart.get(i) ?? 0));
  }
  return totals;
}

/** Tags each row of a page read with the position of its filter. */
const PART = 'group__part';

/**
 * One page of each filter (same size and offset) in one statement per `UNION_PARTS` filters:
 * each part is the page query `findEventPage` runs, as a derived table (SQLite has no
 * parenthesised compound terms), ordered as that page is.
 */
export async function findEventPagesOfEach(
  q: Queryable,
  filters: readonly EventListFilter[],
  limit: number,
  offset: number,
): Promise<EventsRead[]> {
  const reads: EventsRead[] = [];
  for (const chunk of chunks(filters, UNION_PARTS)) {
    const parts = chunk.map((f, i) =>
      q(
        eventPageQuery(q, f, limit, offset)
          .select(q.raw(`${i} as ${PART}`))
          .as(`part${i}`),
      ).select('*'),
    );
    const order = chunk[0]!.include ? ['id'] : ['start_date', 'id'];
    const rows = (await parts[0]!.unionAll(parts.slice(1)).orderBy([PART, ...order])) as Record<
      string,
      unknown
    >[];
    const byPart = chunk.map((): Record<string, unknown>[] => []);
    for (const { [PART]: part, ...row } of rows) byPart[Number(part)]!.push(row);
    reads.push(...byPart.map(splitVenues));
  }
  return reads;
}
