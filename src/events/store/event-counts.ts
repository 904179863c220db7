import type { Knex } from 'knex';
import { clientDialect, type PostStatus, type Queryable, type Taxonomy } from '../../db';
import { applyFilter, type EventListFilter } from './event-list';

/** The SQL of `event_counts`: the events list's filter, grouped, in one statement. */

export type TimeGroup = 'DAY' | 'WEEK' | 'MONTH';
export type RecordGroup = 'VENUE' | 'ORGANIZER' | 'CATEGORY' | 'TAG';

export interface GroupRow {
  /** The bucket (`YYYY-MM-DD`, `YYYY-MM`) or the record id; null: events without one. */
  bucket: string | null;
  /** The record's name (record groups only). */
  name: string | null;
  total: number;
}

/**
 * The bucket of an event's local start (`events.start_date`, the wall clock in the event's own
 * time zone, which the list's date filters compare too): the same text on both engines. A week
 * is ISO's, Monday to Sunday, named by its Monday.
 */
const BUCKETS: Record<'mysql' | 'sqlite', Record<TimeGroup, string>> = {
  mysql: {
    DAY: "date_format(events.start_date, '%Y-%m-%d')",
    WEEK: "date_format(date_sub(date(events.start_date), interval weekday(events.start_date) day), '%Y-%m-%d')",
    MONTH: "date_format(events.start_date, '%Y-%m')",
  },
  sqlite: {
    DAY: 'substr(events.start_date, 1, 10)',
    WEEK: "date(substr(events.start_date, 1, 10), 'weekday 0', '-6 days')",
    MONTH: 'substr(events.start_date, 1, 7)',
  },
};

/** Each event's visible records of a group, as (event_id, id, name) rows to join. */
function members(
  q: Queryable,
  group: RecordGroup,
  statuses: readonly PostStatus[],
): Knex.QueryBuilder {
  if (group === 'ORGANIZER') {
    return q('event_organizers as eo')
      .join('organizers as o', 'o.id', 'eo.organizer_id')
      .whereIn('o.status', [...statuses])
      .select('eo.event_id', 'o.id', 'o.title as name');
  }
  const taxonomy: Taxonomy = group === 'CATEGORY' ? 'category' : 'tag';
  return q('event_terms as et')
    .join('terms as t', 't.id', 'et.term_id')
    .where('t.taxonomy', taxonomy)
    .select('et.event_id', 't.id', 't.name');
}

export async function countTimeGroups(
  q: Queryable,
  f: EventListFilter,
  group: TimeGroup,
): Promise<GroupRow[]> {
  const bucket = BUCKETS[clientDialect(q)][group];
  const query = q('events')
    .select(q.raw(`${bucket} as bucket`), q.raw('null as name'), q.raw('count(*) as total'))
    .groupByRaw(bucket)
    .orderByRaw(bucket);
  applyFilter(q, query, f, 'count');
  return rows(await query);
}

/**
 * Events per venue (the one the caller may see: a hidden venue counts as none, as the list shows
 * the event without it), organizer, category or tag. An event counts once in each of its groups.
 */
export async function countRecordGroups(
  q: Queryable,
  f: EventListFilter,
  group: RecordGroup,
  /** The post statuses the caller sees (`visibleStatuses`). */
  statuses: readonly PostStatus[],
): Promise<GroupRow[]> {
  const query = q('events');
  if (group === 'VENUE') {
    query
      .leftJoin('venues as grouped', (on) => {
        on.on('grouped.id', '=', 'events.venue_id').onIn('grouped.status', [...statuses]);
      })
      .select('grouped.id as bucket', 'grouped.title as name', q.raw('count(*) as total'))
      .groupBy('grouped.id', 'grouped.title');
  } else {
    query
      .leftJoin(members(q, group, statuses).as('grouped'), 'grouped.event_id', 'events.id')
      .select(
        'grouped.id as bucket',
        'grouped.name as name',
        q.raw('count(distinct events.id) as total'),
      )
      .groupBy('grouped.id', 'grouped.name');
  }
  applyFilter(q, query, f, 'count');
  return rows(await query);
}

function rows(raw: Record<string, unknown>[]): GroupRow[] {
  return raw.map((r) => ({
    bucket: r.bucket === null || r.bucket === undefined ? null : String(r.bucket),
    name: r.name === null || r.name === undefined ? null : String(r.name),
    total: Number(r.total),
  }));
}
