import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import type { Config } from '../../config';
import { canonicalZone, SQL_FORMAT } from '../../lib';
import { icsBlocks, type IcsBlock } from './read';
import type {
  ImportItem,
  ImportOrganizer,
  ImportProblem,
  ImportRecord,
  ImportVenue,
} from '../import/records';

/**
 * `import:ics`: the VEVENTs of an iCalendar file as import records, parsed with ical.js one
 * component at a time (a first pass collects the VTIMEZONEs).
 *
 * - UID is the record's key; SUMMARY the title (required); DTSTART (required), DTEND or
 *   DURATION the dates. A DATE value makes an all-day event (DTEND is exclusive).
 * - Times with a TZID that is an IANA zone keep that zone and their wall clock; `Z` times are
 *   UTC; other TZIDs are converted through the file's VTIMEZONE to UTC; floating times are in
 *   the site time zone.
 * - DESCRIPTION is plain text (X-ALT-DESC;FMTTYPE=text/html wins when present); LOCATION's first
 *   line names the venue and GEO gives its coordinates; ORGANIZER (CN and mailto) the organizer;
 *   CATEGORIES the categories; URL the website unless it is one of this site's event pages.
 * - `X-CALENDAR-DATA` (written by this service's exports) restores what iCalendar cannot say.
 * - RRULE: only the first occurrence is imported (a warning says so); RECURRENCE-ID overrides
 *   are skipped with a warning.
 */

const COLUMNS: Record<string, string> = {
  title: 'SUMMARY',
  start_date: 'DTSTART',
  end_date: 'DTEND',
  timezone: 'DTSTART',
  all_day: 'DTSTART',
  description: 'DESCRIPTION',
  website: 'URL',
  venue: 'LOCATION',
  venue_lat: 'GEO',
  venue_lng: 'GEO',
  organizers: 'ORGANIZER',
  organizer: 'ORGANIZER',
  categories: 'CATEGORIES',
};

export function icsColumnOf(field: string): string {
  return COLUMNS[field] ?? `X-CALENDAR-DATA ${field}`;
}

class PropertyError extends Error {
  constructor(
    readonly column: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** TEXT unescaping (RFC 5545 §3.3.11) for properties ical.js leaves raw (X- properties). */
function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Plain text as HTML: paragraphs on blank lines, `<br>` on single line breaks. */
function textToHtml(text: string): string {
  const trimmed = text.replace(/\r\n?/g, '\n').trim();
  if (trimmed === '') return '';
  return trimmed
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

type Zones = Map<string, ICAL.Timezone>;

/** One end of an event as read: a day, or a wall clock with its zone (null: floating). */
type Moment = { day: string } | { wall: string; zone: string | null };

const pad = (n: number) => String(n).padStart(2, '0');

function readMoment(prop: ICAL.Property, name: string, zones: Zones): Moment {
  const time = prop.getFirstValue() as ICAL.Time | null;
  if (!time || typeof time !== 'object' || !('isDate' in time)) {
    throw new PropertyError(name, 'is not a date or date-time');
  }
  const day = `${String(time.year).padStart(4, '0')}-${pad(time.month)}-${pad(time.day)}`;
  if (time.isDate) return { day };
  const wall = `${day} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
  const tzid = prop.getParameter('tzid');
  const tzidText = typeof tzid === 'string' ? tzid : undefined;
  if (!tzidText) {
    return { wall, zone: time.zone === ICAL.Timezone.utcTimezone ? 'UTC' : null };
  }
  const iana = canonicalZone(tzidText.replace(/^\/+/, ''));
  if (iana) return { wall, zone: iana };
  const vtimezone = zones.get(tzidText);
  if (!vtimezone) {
    throw new PropertyError(name, `unknown time zone "${tzidText}" (no VTIMEZONE for it)`);
  }
  const local = time.clone();
  local.zone = vtimezone;
  const utc = DateTime.fromSeconds(local.toUnixTime(), { zone: 'utc' });
  return { wall: utc.toFormat(SQL_FORMAT), zone: 'UTC' };
}

/** A wall clock of `from` (null: the site zone) in zone `to`. */
function convert(wall: string, from: string, to: string): string {
  if (from === to) return wall;
  return DateTime.fromSQL(wall, { zone: from }).setZone(to).toFormat(SQL_FORMAT);
}

function rawText(component: ICAL.Component, name: string): string | undefined {
  const prop = component.getFirstProperty(name);
  if (!prop) return undefined;
  const value = prop.getFirstValue();
  return value === null || value === undefined ? undefined : String(value);
}

/** `X-CALENDAR-DATA`: an object, or {} when absent or unreadable. */
function extraData(component: ICAL.Component): Record<string, unknown> {
  const raw = rawText(component, 'x-calendar-data');
  if (!raw) return {};
  for (const candidate of [unescapeText(raw), raw]) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return parsed as Record<string, unknown>;
      }
    } catch {
      // try the other reading
    }
  }
  throw new PropertyError('X-CALENDAR-DATA', 'is not a JSON object');
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

function numOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function venueFromData(value: unknown): ImportVenue | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const name = str(v.venue);
  if (!name) return null;
  const venue: ImportVenue = {
    venue: name,
    geo_lat: numOrNull(v.geo_lat),
    geo_lng: numOrNull(v.geo_lng),
  };
  for (const key of [
    'address',
    'city',
    'state',
    'province',
    'zip',
    'country',
    'phone',
    'website',
  ] as const) {
    const text = str(v[key]);
    if (text !== undefined) venue[key] = text;
  }
  return venue;
}

function organizersFromData(value: unknown): ImportOrganizer[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (!item || typeof item !== 'object') return [];
    const o = item as Record<string, unknown>;
    const name = str(o.organizer);
    if (!name) return [];
    return [
      {
        organizer: name,
        email: str(o.email) ?? '',
        phone: str(o.phone) ?? '',
        website: str(o.website) ?? '',
      },
    ];
  });
}

function venueFromProperties(component: ICAL.Component): ImportVenue | null {
  const location = rawText(component, 'location')?.trim();
  const geo = component.getFirstPropertyValue('geo') as unknown;
  const coords = Array.isArray(geo) && geo.length === 2 ? geo.map(Number) : null;
  if (!location) return null;
  const [name = '', ...rest] = location.split('\n');
  const venue: ImportVenue = { venue: name.trim() };
  const address = rest.join(', ').trim();
  if (address) venue.address = address;
  if (coords && coords.every(Number.isFinite)) {
    venue.geo_lat = coords[0]!;
    venue.geo_lng = coords[1]!;
  }
  return venue;
}

function organizerFromProperty(component: ICAL.Component): ImportOrganizer[] {
  const prop = component.getFirstProperty('organizer');
  if (!prop) return [];
  const value = String(prop.getFirstValue() ?? '');
  const email = /^mailto:/i.test(value) ? value.slice(7) : '';
  const cn = prop.getParameter('cn');
  const name = (typeof cn === 'string' && cn.trim()) || email;
  return name ? [{ organizer: name, email }] : [];
}

function categoriesOf(component: ICAL.Component): string[] {
  return component
    .getAllProperties('categories')
    .flatMap((p) => p.getValues().map((v) => String(v).trim()))
    .filter((v) => v !== '');
}

/** One VEVENT as an import record (or a warning when it is skipped on purpose). */
function icsRecord(config: Config, block: IcsBlock, zones: Zones): ImportItem {
  const component = new ICAL.Component(ICAL.parse(block.text) as unknown[]);
  const line = block.line;
  if (component.getFirstProperty('recurrence-id')) {
    return {
      problem: {
        line,
        column: 'RECURRENCE-ID',
        reason: 'an override of one occurrence of a recurring event: skipped',
        warning: true,
      },
    };
  }
  const uid = rawText(component, 'uid')?.trim();
  const title = rawText(component, 'summary') ?? '';
  const data = extraData(component);
  const startProp = component.getFirstProperty('dtstart');
  if (!startProp) throw new PropertyError('DTSTART', 'is required');
  const start = readMoment(startProp, 'DTSTART', zones);
  const endProp = component.getFirstProperty('dtend');
  const durationValue = component.getFirstPropertyValue('duration') as ICAL.Duration | null;
  const site = config.siteTimezone;
  const wanted = str(data.timezone) ? canonicalZone(str(data.timezone)!) : null;

  const fields: ImportRecord['fields'] = { title, start_date: '', end_date: '' };
  if ('day' in start) {
    let last = start.day;
    if (endProp) {
      const end = readMoment(endProp, 'DTEND', zones);
      const endDay = 'day' in end ? end.day : end.wall.slice(0, 10);
      const exclusive = DateTime.fromISO(endDay, { zone: 'utc' }).minus({ days: 1 }).toISODate()!;
      if (exclusive > last) last = exclusive;
    } else if (durationValue) {
      const days = Math.ceil(durationValue.toSeconds() / 86_400);
      if (days > 1) {
        last = DateTime.fromISO(start.day, { zone: 'utc' })
          .plus({ days: days - 1 })
          .toISODate()!;
      }
    }
    fields.all_day = true;
    fields.start_date = `${start.day} 00:00:00`;
    fields.end_date = `${last} 23:59:59`;
    fields.timezone = wanted;
  } else {
    const startZone = start.zone ?? site;
    const zone = wanted ?? startZone;
    fields.all_day = false;
    fields.timezone = zone;
    fields.start_date = convert(start.wall, startZone, zone);
    if (endProp) {
      const end = readMoment(endProp, 'DTEND', zones);
      if ('day' in end) throw new PropertyError('DTEND', 'must be a date-time like DTSTART');
      fields.end_date = convert(end.wall, end.zone ?? site, zone);
    } else if (durationValue) {
      fields.end_date = DateTime.fromSQL(fields.start_date, { zone })
        .plus({ seconds: durationValue.toSeconds() })
        .toFormat(SQL_FORMAT);
    } else {
      fields.end_date = fields.start_date;
    }
  }

  const html = rawText(component, 'x-alt-desc');
  const altType = component.getFirstProperty('x-alt-desc')?.getParameter('fmttype');
  if (html !== undefined && String(altType ?? '').toLowerCase() === 'text/html') {
    fields.description = unescapeText(html);
  } else {
    fields.description = textToHtml(rawText(component, 'description') ?? '');
  }
  const url = rawText(component, 'url')?.trim();
  const website = str(data.website);
  if (website !== undefined) fields.website = website;
  else if (url && !url.startsWith(`${config.siteUrl}/event/`)) fields.website = url;
  for (const key of ['status', 'slug', 'excerpt', 'cost'] as const) {
    const value = str(data[key]);
    if (value !== undefined && (value !== '' || key === 'excerpt' || key === 'cost')) {
      fields[key] = value;
    }
  }
  for (const key of [
    'featured',
    'sticky',
    'hide_from_listings',
    'show_map',
    'show_map_link',
  ] as const) {
    const value = bool(data[key]);
    if (value !== undefined) fields[key] = value;
  }
  const created = component.getFirstPropertyValue('created') as ICAL.Time | null;
  if (created && typeof created === 'object' && 'toUnixTime' in created && str(data.status)) {
    fields.date_utc = DateTime.fromSeconds(created.toUnixTime(), { zone: 'utc' }).toFormat(
      SQL_FORMAT,
    );
  }

  const warnings: ImportProblem[] = [];
  if (component.getFirstProperty('rrule')) {
    warnings.push({
      line,
      column: 'RRULE',
      reason: 'recurring event: only its first occurrence was imported',
      warning: true,
    });
  }
  return {
    line,
    key: uid || null,
    fields,
    venue: 'venue' in data ? venueFromData(data.venue) : venueFromProperties(component),
    organizers:
      'organizers' in data ? organizersFromData(data.organizers) : organizerFromProperty(component),
    categories: categoriesOf(component),
    tags: Array.isArray(data.tags)
      ? data.tags.filter((t): t is string => typeof t === 'string')
      : undefined,
    warnings,
  };
}

/** The records of an ICS file: VTIMEZONEs first (one pass), then each VEVENT (another). */
export async function* icsRecords(
  config: Config,
  file: string,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<ImportItem> {
  const zones: Zones = new Map();
  for await (const block of icsBlocks(file, new Set(['VTIMEZONE']))) {
    try {
      const component = new ICAL.Component(ICAL.parse(block.text) as unknown[]);
      const zone = new ICAL.Timezone(component);
      if (zone.tzid) zones.set(zone.tzid, zone);
    } catch {
      // An unreadable VTIMEZONE: events naming it will say so.
    }
  }
  const problems: ImportItem[] = [];
  const events = icsBlocks(
    file,
    new Set(['VEVENT']),
    (p) => problems.push({ problem: p }),
    onBytes,
  );
  for await (const block of events) {
    yield* problems.splice(0);
    try {
      yield icsRecord(config, block, zones);
    } catch (error) {
      const column = error instanceof PropertyError ? error.column : undefined;
      const reason = error instanceof Error ? error.message : String(error);
      yield { problem: { line: block.line, ...(column ? { column } : {}), reason } };
    }
  }
  yield* problems.splice(0);
}
