import { IANAZone } from 'luxon';
import { utcSql, zoneAbbr } from '../../lib';

/**
 * VTIMEZONE components (RFC 5545 §3.6.5) from the same tzdb data the service converts dates
 * with (luxon over the runtime's Intl), so a calendar app resolves every TZID exactly as the
 * service stored it. Instead of RRULEs, each component lists the real transitions within the
 * years the exported events span (plus one on each side): one STANDARD or DAYLIGHT
 * sub-component per onset.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Answers of `isNamedZone`: luxon builds an Intl formatter for every check (a third of a feed). */
const named = new Map<string, boolean>();

/** Whether `zone` gets a VTIMEZONE: IANA names do; `UTC` and `UTC±H` are written in UTC. */
export function isNamedZone(zone: string): boolean {
  let known = named.get(zone);
  if (known === undefined) {
    known = zone !== 'UTC' && !/^UTC[+-]/i.test(zone) && IANAZone.isValidZone(zone);
    if (named.size < 1000) named.set(zone, known);
  }
  return known;
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  const m = Math.floor(abs % 60);
  const s = Math.round((abs * 60) % 60);
  const base = `${sign}${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}`;
  return s ? `${base}${String(s).padStart(2, '0')}` : base;
}

/** Local wall clock of an instant at `offset` minutes, as an iCalendar DATE-TIME (floating). */
function wallClock(ms: number, offset: number): string {
  const d = new Date(ms + offset * MINUTE);
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}` +
    `T${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`
  );
}

/** The instants in [from, to) where the zone's offset changes, to the minute. */
function transitions(zone: IANAZone, from: number, to: number): number[] {
  const found: number[] = [];
  let previous = zone.offset(from);
  for (let t = from + DAY; t <= to; t += DAY) {
    const offset = zone.offset(t);
    if (offset === previous) continue;
    let lo = t - DAY;
    let hi = t;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (zone.offset(mid) === previous) lo = mid;
      else hi = mid;
    }
    found.push(hi);
    previous = offset;
  }
  return found;
}

/** A year is a DST one for the zone when its offset is above the year's lowest. */
function isDaylight(zone: IANAZone, ms: number): boolean {
  const year = new Date(ms).getUTCFullYear();
  const jan = zone.offset(Date.UTC(year, 0, 1));
  const jul = zone.offset(Date.UTC(year, 6, 1));
  return zone.offset(ms) > Math.min(jan, jul);
}

/** The VTIMEZONE of `name` for the years [fromYear, toYear], as unfolded lines. */
export function vtimezoneLines(name: string, fromYear: number, toYear: number): string[] {
  const zone = IANAZone.create(name);
  const from = Date.UTC(fromYear - 1, 0, 1);
  const to = Date.UTC(toYear + 2, 0, 1);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${name}`, `X-LIC-LOCATION:${name}`];
  const component = (at: number, before: number, after: number) => {
    const kind = isDaylight(zone, at) ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${wallClock(at, before)}`,
      `TZOFFSETFROM:${offsetText(before)}`,
      `TZOFFSETTO:${offsetText(after)}`,
    );
    const abbr = zoneAbbr(name, utcSql(at));
    if (abbr && !/[;:,"]/.test(abbr)) lines.push(`TZNAME:${abbr}`);
    lines.push(`END:${kind}`);
  };
  const initial = zone.offset(from);
  component(from, initial, initial);
  let previous = initial;
  for (const at of transitions(zone, from, to)) {
    const offset = zone.offset(at);
    component(at, previous, offset);
    previous = offset;
  }
  lines.push('END:VTIMEZONE');
  return lines;
}
