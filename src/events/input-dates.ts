import { Info, type DateTime, type Zone } from 'luxon';
import {
  canonicalZone,
  formatSql,
  fromSql,
  invalid,
  InvalidParamError,
  parseDateInput,
  utcSql,
  type InvalidParams,
} from '../lib';
import type { EventRow } from '../db';
import { has } from '../posts';
import { EMPTY_DATE, END_BEFORE_START, NOT_A_DATE, ZONE_REASON } from './rules';

/**
 * The start/end/time-zone fields of event writes (docs/contract.md §7 "Event dates"), for single
 * writes, the bulk path and imports alike. Given dates are read in the event's time zone;
 * stored dates not given are kept as wall-clock times, so a new `timezone` alone re-interprets
 * them (and moves the UTC instants). All-day events span 00:00:00 of the start date to
 * 23:59:59 of the end date; the end must not be before the start.
 *
 * Speed (imports write millions): canonicalising a zone and asking Intl for its offset cost
 * ~0.4 ms per event through luxon. The reader converts `YYYY-MM-DD HH:MM[:SS]` inputs with the
 * zone's offset for that local day, computed once per (zone, day) and used only when the offset
 * is the same from 00:00:00 to 23:59:59 (a day without a DST change). Days with a change, and
 * every other input form, take the general path (`parseDateInput`, luxon): same results.
 */

export type EventDateColumns = Pick<
  EventRow,
  'timezone' | 'all_day' | 'start_date' | 'end_date' | 'utc_start_date' | 'utc_end_date'
>;

/** The date fields of an event write (GraphQL `EventInput`, bulk and import records). */
export interface EventDateInput {
  timezone?: string | null;
  all_day?: boolean | null;
  start_date?: string | null;
  end_date?: string | null;
}

const TOUCHED = ['timezone', 'all_day', 'start_date', 'end_date'] as const;
const SQL_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const MINUTE_MS = 60_000;

/** null/"" means the site time zone; otherwise a zone name or `UTC±H[:MM]` (see canonicalZone). */
export function checkZone(value: string | null | undefined, site: string): string {
  const zone = (value ?? '').trim();
  if (zone === '') return site;
  const canonical = canonicalZone(zone);
  if (canonical) return canonical;
  throw invalid('timezone', ZONE_REASON);
}

/** One end of an event: its stored wall clock and its instant (ms since the epoch). */
interface Moment {
  wall: string;
  ms: number;
}

/** Reads event dates; one reader per import keeps its zone and day caches warm. */
export class EventDateReader {
  private readonly zoneObjects = new Map<string, Zone>();
  private readonly dayOffsets = new Map<string, number | null>();
  private readonly lastOffsets = new Map<string, number>();

  /** `fast` false: every input through luxon (tests hold the fast path to it). */
  constructor(
    private readonly siteZone: string,
    private readonly now: Date,
    private readonly fast = true,
  ) {}

  /** The columns of a new event. */
  read(input: EventDateInput): EventDateColumns {
    return this.change(input, null) as EventDateColumns;
  }

  /** The columns a write sets: none on an update that touches no date field. */
  change(
    input: EventDateInput,
    current: EventRow | null,
  ): EventDateColumns | Record<string, never> {
    if (current && !TOUCHED.some((k) => has(input, k))) return {};
    const zone = has(input, 'timezone')
      ? checkZone(input.timezone, this.siteZone)
      : (current?.timezone ?? this.siteZone);
    const allDay = has(input, 'all_day') ? input.all_day === true : (current?.all_day ?? false);
    const problems: InvalidParams = {};
    const moment = (name: 'start_date' | 'end_date', endOfDay: boolean | null) => {
      const kept = current && !has(input, name);
      const text = kept ? current[name].slice(0, 19) : input[name] ? String(input[name]) : '';
      const found = text
        ? ((this.fast ? this.quick(text, zone, endOfDay) : null) ??
          this.general(text, zone, endOfDay))
        : null;
      if (!found) problems[name] = text ? NOT_A_DATE : EMPTY_DATE;
      return found;
    };
    const start = moment('start_date', allDay ? false : null);
    const end = moment('end_date', allDay ? true : null);
    if (!start || !end) throw new InvalidParamError(problems);
    if (end.ms < start.ms) {
      // Name the field the client sent: a lone start_date is what moved past the stored end.
      throw invalid(
        current && !has(input, 'end_date') ? 'start_date' : 'end_date',
        END_BEFORE_START,
      );
    }
    return {
      timezone: zone,
      all_day: allDay,
      start_date: start.wall,
      end_date: end.wall,
      utc_start_date: utcSql(start.ms),
      utc_end_date: utcSql(end.ms),
    };
  }

  /** The zone's UTC offset (minutes) valid for the whole local day, or null on a DST-change day. */
  private dayOffset(zone: string, y: number, m: number, d: number): number | null {
    const key = `${zone}|${y}-${m}-${d}`;
    const cached = this.dayOffsets.get(key);
    if (cached !== undefined) return cached;
    let z = this.zoneObjects.get(zone);
    if (!z) {
      z = Info.normalizeZone(zone);
      this.zoneObjects.set(zone, z);
    }
    // A candidate offset, checked exactly at both ends of the local day: the zone's offset of the
    // last steady day asked (most days share it), else the local midnight read as UTC (at most
    // 14 h off the true instant). Each check asks Intl (~10 µs); a wrong candidate only costs
    // the other candidate, then the fast path.
    const midnight = Date.UTC(y, m - 1, d);
    const steady = (offset: number): boolean => {
      const first = midnight - offset * MINUTE_MS;
      return z.offset(first) === offset && z.offset(first + 86_399_000) === offset;
    };
    const last = this.lastOffsets.get(zone);
    let result: number | null = null;
    if (last !== undefined && steady(last)) result = last;
    else {
      const offset = z.offset(midnight);
      if (offset !== last && Number.isFinite(offset) && steady(offset)) result = offset;
    }
    if (result !== null) this.lastOffsets.set(zone, result);
    this.dayOffsets.set(key, result);
    return result;
  }

  /** The fast path, or null when the input needs the general one. */
  private quick(text: string, zone: string, endOfDay: boolean | null): Moment | null {
    const match = SQL_LIKE.exec(text);
    if (!match) return null;
    const [, ys, ms, ds, hs = '00', mis = '00', ss = '00'] = match;
    const [y, mo, d] = [Number(ys), Number(ms), Number(ds)];
    const [h, mi, s] =
      endOfDay === null
        ? [Number(hs), Number(mis), Number(ss)]
        : endOfDay
          ? [23, 59, 59]
          : [0, 0, 0];
    if (y < 1000 || h > 23 || mi > 59 || s > 59) return null;
    const local = Date.UTC(y, mo - 1, d, h, mi, s);
    const check = new Date(local);
    if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
    const offset = this.dayOffset(zone, y, mo, d);
    if (offset === null) return null;
    const wall = `${ys}-${ms}-${ds} ${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
    return { wall, ms: local - offset * MINUTE_MS };
  }

  /**
   * The general path: every accepted input form, DST gaps resolved by luxon. The instant is the
   * stored wall clock's (in a repeated hour, its first occurrence), as a later write re-reads it.
   */
  private general(text: string, zone: string, endOfDay: boolean | null): Moment | null {
    let dt: DateTime | null = parseDateInput(text, zone, this.now);
    if (!dt) return null;
    if (endOfDay === false) dt = dt.startOf('day');
    if (endOfDay === true) dt = dt.set({ hour: 23, minute: 59, second: 59 });
    const wall = formatSql(dt);
    return { wall, ms: fromSql(wall, zone).toMillis() };
  }
}
