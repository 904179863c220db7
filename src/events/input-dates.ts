import type { DateTime } from 'luxon';
import { InvalidParamError, invalid, type InvalidParams } from '../lib/errors';
import { canonicalZone, formatSql, fromSql, localToUtc, parseDateInput } from '../lib/dates';
import type { EventRow } from '../db/rows';
import type { EventInput } from './input';
import { has } from '../posts/fields';

/** The start/end/time-zone fields of event writes (CONTRACT §4 "Event dates"). */

type DateColumns = Pick<
  EventRow,
  'timezone' | 'all_day' | 'start_date' | 'end_date' | 'utc_start_date' | 'utc_end_date'
>;

/**
 * Start/end columns. Given dates are read in the event's time zone; stored dates not given are
 * kept as wall-clock times, so a new `timezone` alone re-interprets them (and moves the UTC
 * instants). All-day events span 00:00:00 of the start date to 23:59:59 of the end date.
 */
export function eventDates(
  input: EventInput,
  current: EventRow | null,
  site: string,
  now: Date,
): DateColumns | Record<string, never> {
  const touched = ['timezone', 'all_day', 'start_date', 'end_date'] as const;
  if (current && !touched.some((k) => has(input, k))) return {};
  const zone = has(input, 'timezone')
    ? checkZone(input.timezone, site)
    : (current?.timezone ?? site);
  const allDay = has(input, 'all_day') ? input.all_day === true : (current?.all_day ?? false);
  const problems: InvalidParams = {};
  const read = (name: 'start_date' | 'end_date'): DateTime | null => {
    if (current && !has(input, name)) return fromSql(current[name], zone);
    const value = input[name];
    const parsed = value ? parseDateInput(value, zone, now) : null;
    if (!parsed) problems[name] = value ? 'is not a date' : 'must be a non-empty date';
    return parsed;
  };
  let start = read('start_date');
  let end = read('end_date');
  if (!start || !end) throw new InvalidParamError(problems);
  if (allDay) {
    start = start.startOf('day');
    end = end.set({ hour: 23, minute: 59, second: 59 });
  }
  if (end.toMillis() < start.toMillis()) {
    // Name the field the client sent: a lone start_date is what moved past the stored end.
    const name = current && !has(input, 'end_date') ? 'start_date' : 'end_date';
    throw invalid(name, 'the end of the event must not be before its start');
  }
  const startSql = formatSql(start);
  const endSql = formatSql(end);
  return {
    timezone: zone,
    all_day: allDay,
    start_date: startSql,
    end_date: endSql,
    utc_start_date: localToUtc(startSql, zone),
    utc_end_date: localToUtc(endSql, zone),
  };
}

/** null/"" means the site time zone; otherwise a zone name or `UTC±H[:MM]` (see canonicalZone). */
function checkZone(value: string | null | undefined, site: string): string {
  const zone = (value ?? '').trim();
  if (zone === '') return site;
  const canonical = canonicalZone(zone);
  if (canonical) return canonical;
  throw invalid('timezone', 'must be a time zone such as "Europe/Paris", "UTC" or "UTC+2"');
}
