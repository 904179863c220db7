import { DateTime } from 'luxon';
import type { AppContext } from '../context';
import { visibleStatuses } from '../posts';
import { resolveEventFilter, withoutEmptyLists } from './filters';
import type { EventListArgs } from './list-args';
import {
  countRecordGroups,
  countTimeGroups,
  type GroupRow,
  type RecordGroup,
  type TimeGroup,
} from './store/event-counts';

/**
 * `event_counts` (docs/graphql.md "Counting events"): the events the list with the same
 * arguments shows the caller — the same filter code, default window and visibility — grouped in
 * one SQL statement. Time groups follow each event's local start (its `start_date` wall clock),
 * the clock the date filters compare, so a month's count is what the list of that month shows.
 */

export type EventCountGroup = TimeGroup | RecordGroup;

export interface EventCount {
  key: string;
  label: string;
  count: number;
}

/** The list's arguments without paging (counts cover every page). */
export type EventCountArgs = Omit<EventListArgs, 'page' | 'per_page' | 'ticketed'>;

const TIME_GROUPS: ReadonlySet<string> = new Set<TimeGroup>(['DAY', 'WEEK', 'MONTH']);

/** The key of events that have no record of the group. */
export const NO_GROUP = 'none';

const NONE_LABEL: Record<RecordGroup, string> = {
  VENUE: 'No venue',
  ORGANIZER: 'No organizer',
  CATEGORY: 'No category',
  TAG: 'No tag',
};

function timeLabel(group: TimeGroup, key: string): string {
  const day = DateTime.fromISO(key, { zone: 'UTC', locale: 'en' });
  if (!day.isValid) return key;
  if (group === 'MONTH') return day.toFormat('LLLL yyyy');
  if (group === 'WEEK') return `Week of ${day.toFormat('d LLLL yyyy')}`;
  return day.toFormat('cccc d LLLL yyyy');
}

export async function countEventsBy(
  ctx: AppContext,
  group: EventCountGroup,
  raw: EventCountArgs,
): Promise<EventCount[]> {
  const { filter } = await resolveEventFilter(ctx, withoutEmptyLists(raw));
  if (TIME_GROUPS.has(group)) {
    const time = group as TimeGroup;
    return (await countTimeGroups(ctx.db, filter, time)).map((r: GroupRow) => ({
      key: r.bucket ?? '',
      label: timeLabel(time, r.bucket ?? ''),
      count: r.total,
    }));
  }
  const records = group as RecordGroup;
  const rows = await countRecordGroups(ctx.db, filter, records, visibleStatuses(ctx));
  return rows
    .map((r) => ({
      key: r.bucket ?? NO_GROUP,
      label: r.bucket === null ? NONE_LABEL[records] : (r.name ?? ''),
      count: r.total,
    }))
    .sort(
      (a, b) => b.count - a.count || a.label.localeCompare(b.label) || (a.key < b.key ? -1 : 1),
    );
}
