import type { Knex } from 'knex';
import {
  keepTotal,
  onTotalsDropped,
  rowGeneration,
  selectGeneration,
  type Queryable,
} from '../../db';
import type { EventsRead } from './event-reads';
import {
  applyFilter,
  eventPageQuery,
  inListOrder,
  totalKey,
  type EventListFilter,
} from './event-list';

/**
 * Deep pages of an event list (`page=50000`): an OFFSET page reads every index entry it skips
 * (0.25 s for page 50,000 of 1,000,000 events). From offset 5,000 on (`setDeepOffset`), the
 * list's events per local start day are counted once per write generation (one GROUP BY over the
 * index, ~1 s at 1,000,000 events, kept per filter); a page then starts at its first day — the
 * day before holds fewer events than the offset — and skips only that day's earlier events. The
 * day counts give the exact total as well. A write since they were counted is seen by the page
 * read itself (it carries the write generation): the ordinary page answers then, and the counts
 * are made again by the next deep page.
 */

/** The offset from which a page starts from its day (page 501 of 10). */
let deepOffset = 5000;

/** Moves that offset (tests compare deep and ordinary pages on small lists); returns the old. */
export function setDeepOffset(offset: number): number {
  const old = deepOffset;
  deepOffset = offset;
  return old;
}

/** Lists whose day counts are kept, least recently used dropped first. */
const MAX_LISTS = 16;

interface Day {
  /** `YYYY-MM-DD`, the local start day. */
  day: string;
  /** Events of the list on earlier days. */
  before: number;
}

interface DayIndex {
  generation: number;
  total: number;
  days: Day[];
}

const indexes = new WeakMap<Knex, Map<string, Promise<DayIndex>>>();
// Writes that move no generation (this process's statements outside a write transaction).
onTotalsDropped((db) => indexes.get(db)?.clear());

function keptOf(q: Queryable): Map<string, Promise<DayIndex>> {
  let kept = indexes.get(q as Knex);
  if (!kept) indexes.set(q as Knex, (kept = new Map()));
  return kept;
}

async function countDays(q: Queryable, f: EventListFilter, key: string): Promise<DayIndex> {
  const query = q('events')
    .select(q.raw('date(??) as ??', ['events.start_date', 'day']))
    .count({ n: '*' })
    .groupBy('day')
    .orderBy('day');
  applyFilter(q, query, f, 'count');
  const rows = (await selectGeneration(q, query)) as { day: string; n: number | string }[];
  const days: Day[] = [];
  let total = 0;
  for (const row of rows) {
    days.push({ day: String(row.day).slice(0, 10), before: total });
    total += Number(row.n);
  }
  const generation = rows.length ? rowGeneration(rows[0]!) : -1;
  if (rows.length) keepTotal(q, key, generation, total);
  return { generation, total, days };
}

/** The day counts of `f`, counted once per key (concurrent first requests share the count). */
function dayIndex(q: Queryable, f: EventListFilter, key: string): Promise<DayIndex> {
  const kept = keptOf(q);
  let index = kept.get(key);
  if (index) {
    kept.delete(key);
  } else {
    index = countDays(q, f, key);
    index.catch(() => kept.delete(key));
  }
  kept.set(key, index);
  if (kept.size > MAX_LISTS) kept.delete(kept.keys().next().value!);
  return index;
}

/** The day a page at `offset` starts on: the last day with fewer events before it. */
function dayOf(days: readonly Day[], offset: number): Day {
  let low = 0;
  let high = days.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (days[mid]!.before <= offset) low = mid;
    else high = mid - 1;
  }
  return days[low]!;
}

/**
 * A deep page and the list's total, or null when the ordinary page must answer: a shallow
 * offset, an `include` list (by id), a transaction, a page past the end, or a write since the
 * day counts were made (then dropped, to be made again).
 */
export async function findDeepEventPage(
  q: Queryable,
  f: EventListFilter,
  limit: number,
  offset: number,
): Promise<(EventsRead & { total: number }) | null> {
  if (offset < deepOffset || f.include || (q as Knex.Transaction).isTransaction) return null;
  const key = totalKey(f);
  const index = await dayIndex(q, f, key);
  if (offset >= index.total) return null;
  const day = dayOf(index.days, offset);
  const fromDay: EventListFilter = {
    ...f,
    dates: [...f.dates, { column: 'start_date', op: '>=', value: `${day.day} 00:00:00` }],
  };
  const rows = (await selectGeneration(
    q,
    eventPageQuery(q, fromDay, limit, offset - day.before),
  )) as Record<string, unknown>[];
  if (rows.length === 0 || rowGeneration(rows[0]!) !== index.generation) {
    keptOf(q).delete(key);
    return null;
  }
  // The generation column is skipped by the page's row reader (splitVenues).
  return { total: index.total, ...inListOrder(f, rows) };
}
