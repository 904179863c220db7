import { ICalCalendar, ICalEvent, escape, type ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import type { ExportEvent, ExportVenue } from '../export-rows';
import { costText, storedWebsite } from '../csv/columns';
import { isNamedZone, vtimezoneLines } from './timezones';

/**
 * iCalendar (RFC 5545) text of events, written a piece at a time so feeds and `export:ics`
 * stream: the calendar head (with one VTIMEZONE per time zone the events use), one VEVENT per
 * event (built with ical-generator), the tail.
 *
 * Per event: UID = the event's `global_id` (stable across exports and sites), DTSTAMP and
 * LAST-MODIFIED = its modification time, SEQUENCE = seconds from 2020 to that time (grows with
 * every change), DTSTART/DTEND with TZID in the event's time zone (UTC for `UTC`/`UTC±H`
 * events), all-day events as DATE values with an exclusive DTEND (the day after the last),
 * SUMMARY, DESCRIPTION as plain text (the HTML in X-ALT-DESC), LOCATION and GEO from the venue,
 * ORGANIZER = the first organizer (`mailto:` its e-mail, else its page), CATEGORIES = the
 * categories, URL = the event's page. `X-CALENDAR-DATA` carries, as JSON, what iCalendar has no
 * property for (status, slug, excerpt, cost, website, flags, tags, the venue's and every
 * organizer's fields), so that `import:ics` reads an export back without loss.
 */

const PRODID = '-//calendar-service//Events//EN';
export const CALENDAR_TAIL = 'END:VCALENDAR\r\n';

const SEQUENCE_EPOCH = Date.UTC(2020, 0, 1);
const CALENDAR = new ICalCalendar();

const ENCODER = new TextEncoder();

/**
 * Lines folded at 75 octets (RFC 5545 §3.1) exactly as ical-generator's `foldLines` folds them,
 * which builds a TextEncoder for every character (a third of a feed's time): here only a line
 * that may be too long is walked, and only characters outside ASCII are measured.
 */
export function foldLines(input: string): string {
  return input
    .split('\r\n')
    .map((line) => {
      if (line.length * 3 <= 74) return line;
      let result = '';
      let octets = 0;
      for (let i = 0; i < line.length; i++) {
        let ch = line.charAt(i);
        // A surrogate pair counts as one character.
        if (ch >= '\ud800' && ch <= '\udbff') ch += line.charAt(++i);
        const size = ch.charCodeAt(0) < 0x80 ? 1 : ENCODER.encode(ch).length;
        octets += size;
        if (octets > 74) {
          result += '\r\n ';
          octets = size;
        }
        result += ch;
      }
      return result;
    })
    .join('\r\n');
}

/** Years each named time zone must cover: those of the events' dates. */
export type ZoneYears = Map<string, { from: number; to: number }>;

export function addZoneYears(zones: ZoneYears, zone: string, utcStart: string, utcEnd: string) {
  if (!isNamedZone(zone)) return;
  const from = Number(utcStart.slice(0, 4));
  const to = Number(utcEnd.slice(0, 4));
  const known = zones.get(zone);
  zones.set(zone, {
    from: Math.min(from, known?.from ?? from),
    to: Math.max(to, known?.to ?? to),
  });
}

export interface CalendarHead {
  /** X-WR-CALNAME: what calendar apps call a subscribed calendar. */
  name: string;
  description?: string;
  zones: ZoneYears;
}

/** BEGIN:VCALENDAR, its properties (a refresh hint of one hour) and the VTIMEZONEs. */
export function calendarHead({ name, description, zones }: CalendarHead): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `NAME:${escape(name, false)}`,
    `X-WR-CALNAME:${escape(name, false)}`,
    ...(description ? [`X-WR-CALDESC:${escape(description, false)}`] : []),
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  for (const [zone, years] of [...zones].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(...vtimezoneLines(zone, years.from, years.to));
  }
  return foldLines(`${lines.join('\r\n')}\r\n`);
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Plain text of sanitised HTML: line breaks for blocks and `<br>`, tags dropped, entities decoded. */
function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000
          ? String.fromCodePoint(code)
          : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function addressOf(v: ExportVenue): string {
  const region = [v.stateprovince || v.state || v.province, v.zip].filter(Boolean).join(' ');
  return [v.address, v.city, region, v.country].filter(Boolean).join(', ');
}

/** A parameter value: quoted, without the characters a quoted value may not hold. */
function param(value: string): string {
  return `"${value.replace(/["\r\n]/g, "'")}"`;
}

function utc(sql: string): DateTime {
  return DateTime.fromSQL(sql, { zone: 'utc' });
}

/** The JSON of `X-CALENDAR-DATA`. */
function extraData(e: ExportEvent): Record<string, unknown> {
  return {
    status: e.status,
    slug: e.slug,
    timezone: e.timezone,
    excerpt: e.excerpt,
    cost: costText(e),
    website: storedWebsite(e),
    featured: e.featured,
    sticky: e.sticky,
    hide_from_listings: e.hide_from_listings,
    show_map: e.show_map,
    show_map_link: e.show_map_link,
    tags: e.tags.map((t) => t.name),
    venue: e.venue && {
      venue: e.venue.venue,
      address: e.venue.address,
      city: e.venue.city,
      state: e.venue.state,
      province: e.venue.province,
      zip: e.venue.zip,
      country: e.venue.country,
      phone: e.venue.phone,
      website: e.venue.website,
      geo_lat: e.venue.geo_lat,
      geo_lng: e.venue.geo_lng,
    },
    organizers: e.organizer.map((o) => ({
      organizer: o.organizer,
      email: o.email,
      phone: o.phone,
      website: o.website,
    })),
  };
}

/** One VEVENT, folded, ending with CRLF. */
export function eventText(e: ExportEvent): string {
  const allDay = e.all_day === true;
  const named = isNamedZone(e.timezone);
  const modified = utc(e.modified_utc);
  let timing: Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'>;
  if (allDay) {
    const first = DateTime.fromISO(e.start_date.slice(0, 10), { zone: 'utc' });
    const last = DateTime.fromISO(e.end_date.slice(0, 10), { zone: 'utc' });
    timing = { allDay: true, start: first, end: (last < first ? first : last).plus({ days: 1 }) };
  } else if (named) {
    timing = {
      timezone: e.timezone,
      start: DateTime.fromSQL(e.start_date, { zone: e.timezone }),
      end: DateTime.fromSQL(e.end_date, { zone: e.timezone }),
    };
  } else {
    timing = { start: utc(e.utc_start_date), end: utc(e.utc_end_date) };
  }
  const event = new ICalEvent(
    {
      id: e.global_id,
      sequence: Math.max(0, Math.floor((modified.toMillis() - SEQUENCE_EPOCH) / 1000)),
      stamp: modified,
      lastModified: modified,
      created: utc(e.date_utc),
      ...timing,
      summary: e.title,
      url: e.url,
      categories: e.categories.map((c) => ({ name: c.name })),
      x: [['X-CALENDAR-DATA', JSON.stringify(extraData(e))]],
    },
    CALENDAR,
  );
  if (e.description) event.description({ plain: htmlToText(e.description), html: e.description });
  if (e.venue) {
    const geo =
      e.venue.geo_lat !== null && e.venue.geo_lng !== null
        ? { lat: e.venue.geo_lat, lon: e.venue.geo_lng }
        : undefined;
    event.location({ title: e.venue.venue, address: addressOf(e.venue) || undefined, geo });
  }
  const extra: string[] = [];
  const [first] = e.organizer;
  if (first) {
    const address = first.email ? `mailto:${first.email}` : first.url;
    const email = first.email ? `;EMAIL=${param(first.email)}` : '';
    extra.push(`ORGANIZER;CN=${param(first.organizer)}${email}:${address.replace(/[\r\n]/g, '')}`);
  }
  const text = event.toString().replace(/END:VEVENT\r\n$/, '');
  return foldLines(`${text}${extra.map((l) => `${l}\r\n`).join('')}END:VEVENT\r\n`);
}

/** A whole calendar of `events` (feeds: a bounded number of events). */
export function calendarText(events: readonly ExportEvent[], name: string): string {
  const zones: ZoneYears = new Map();
  for (const e of events) {
    if (e.all_day !== true) addZoneYears(zones, e.timezone, e.utc_start_date, e.utc_end_date);
  }
  return calendarHead({ name, zones }) + events.map(eventText).join('') + CALENDAR_TAIL;
}
