import { DateTime } from 'luxon';
import type { EventRow, VenueRow } from '../db';
import { isValidZone, toIsoWithOffset, zoneAbbr } from '../lib';

/**
 * How the pages show dates, places and calendar links. Dates are the event's own wall clock
 * (`start_date` in `timezone`), never converted to the reader's zone: a concert at 19:00 in
 * Paris reads 19:00 CET wherever it is read; the `<time datetime>` carries the instant.
 */

const dayFormat = new Intl.DateTimeFormat('en', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const timeFormat = new Intl.DateTimeFormat('en', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A stored wall clock as a Date whose UTC fields are that wall clock (for the formats above). */
function wallClock(sql: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/.exec(sql);
  if (!m) return new Date(NaN);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!));
}

/** The zone a stored wall clock is in: the event's (always set on write), UTC if unusable. */
export function zoneOf(row: Pick<EventRow, 'timezone'>): string {
  return row.timezone || 'UTC';
}

function abbreviation(row: EventRow): string {
  if (row.timezone === '') return '';
  if (!isValidZone(row.timezone)) return /^UTC[+-]/i.test(row.timezone) ? row.timezone : '';
  return zoneAbbr(row.timezone, row.utc_start_date);
}

/** `Sat, Dec 5, 2026, 19:00 – 22:30 CET`; all-day and multi-day events read naturally. */
export function whenText(row: EventRow): string {
  const start = wallClock(row.start_date);
  const end = wallClock(row.end_date);
  const sameDay = row.start_date.slice(0, 10) === row.end_date.slice(0, 10);
  if (row.all_day) {
    return sameDay
      ? `${dayFormat.format(start)}, all day`
      : `${dayFormat.format(start)} – ${dayFormat.format(end)}, all day`;
  }
  const range = sameDay
    ? `${dayFormat.format(start)}, ${timeFormat.format(start)} – ${timeFormat.format(end)}`
    : `${dayFormat.format(start)}, ${timeFormat.format(start)} – ${dayFormat.format(end)}, ${timeFormat.format(end)}`;
  const zone = abbreviation(row);
  return zone ? `${range} ${zone}` : range;
}

/** The start and end instants with the event's offset, for `<time datetime>`. */
export function isoRange(row: EventRow): { start: string; end: string } {
  const zone = zoneOf(row);
  return { start: toIsoWithOffset(row.start_date, zone), end: toIsoWithOffset(row.end_date, zone) };
}

/** `YYYY-MM-DD` of a stored wall clock: the day an event is shown on in the month view. */
export function dayOf(sql: string): string {
  return sql.slice(0, 10);
}

/** The venue's address on one line (`1 Main St, Springfield, IL 62701, United States`). */
export function addressLine(
  venue: Pick<VenueRow, 'address' | 'city' | 'zip' | 'country'>,
  region: string,
): string {
  const locality = [region, venue.zip].filter((p) => p.trim() !== '').join(' ');
  return [venue.address, venue.city, locality, venue.country]
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join(', ');
}

/** An OpenStreetMap link: the coordinates when known, else a search for the address. */
export function mapLink(venue: Pick<VenueRow, 'geo_lat' | 'geo_lng'>, address: string): string {
  if (venue.geo_lat !== null && venue.geo_lng !== null) {
    const { geo_lat: lat, geo_lng: lng } = venue;
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;
  }
  return address ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}` : '';
}

function compactUtc(utcSql: string): string {
  return `${utcSql.replace(/[-:]/g, '').replace(' ', 'T')}Z`;
}

/**
 * Google Calendar's event template link: UTC instants for timed events; for all-day events the
 * dates, the end exclusive (the day after the last).
 */
export function googleCalendarLink(
  row: EventRow,
  title: string,
  details: string,
  location: string,
): string {
  let dates: string;
  if (row.all_day) {
    const first = row.start_date.slice(0, 10).replace(/-/g, '');
    const after = DateTime.fromISO(row.end_date.slice(0, 10), { zone: 'UTC' })
      .plus({ days: 1 })
      .toFormat('yyyyLLdd');
    dates = `${first}/${after}`;
  } else {
    dates = `${compactUtc(row.utc_start_date)}/${compactUtc(row.utc_end_date)}`;
  }
  const query = new URLSearchParams({ action: 'TEMPLATE', text: title, dates });
  if (details) query.set('details', details.slice(0, 1000));
  if (location) query.set('location', location);
  if (isValidZone(row.timezone)) query.set('ctz', row.timezone);
  return `https://calendar.google.com/calendar/render?${query.toString()}`;
}
