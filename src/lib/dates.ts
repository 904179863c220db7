// The English parser alone: the package's index loads all sixteen locales (+12 MB of RSS, ~130 ms
// of start-up) for a `parse` that is this one's.
import * as chrono from 'chrono-node/en';
import { DateTime, IANAZone } from 'luxon';
import moment from 'moment-timezone';
import { flatText } from './urls';

/** The one place that parses and formats dates. Stored dates are `YYYY-MM-DD HH:MM:SS` strings. */

export const SQL_FORMAT = 'yyyy-LL-dd HH:mm:ss';

export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

// luxon builds an Intl.DateTimeFormat to check a name (~8% of a list's CPU when asked per
// event); the answer for a name never changes, and the names in use are few.
const validZones = new Map<string, boolean>();

export function isValidZone(zone: string): boolean {
  let valid = validZones.get(zone);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(zone);
    if (validZones.size >= 1000) validZones.clear();
    validZones.set(zone, valid);
  }
  return valid;
}

// `UTC+5`, `UTC-3:30`: the fixed offsets the reference accepts besides zone names.
const FIXED_OFFSET = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const BARE_OFFSET = /^[+-](\d{2})(?::?(\d{2}))?$/;

/**
 * UTC offsets run from -12:00 to +14:00; anything beyond ±14:00 (`+99:00`, `-15:00`) or with 60
 * minutes or more is a typo, refused rather than read as a far-away instant.
 */
const MAX_OFFSET_MINUTES = 14 * 60;

function offsetInRange(hours: string, minutes = '0'): boolean {
  return Number(minutes) < 60 && Number(hours) * 60 + Number(minutes) <= MAX_OFFSET_MINUTES;
}

/** The offset ending an ISO 8601 date (`…10:00+02:00`, `…10:00-0500`). */
const ISO_OFFSET = /[+-](\d{2}):?(\d{2})$/;

/**
 * An offset ending relative English (`tomorrow 9am -05:00`, `… UTC+2`, `… GMT-0330`); a time
 * range such as `10:00-15:00` is not one.
 */
const WORD_OFFSET = /(?:(?:UTC|GMT)\s*[+-](\d{1,2})(?::?(\d{2}))?|(?:^|\s)[+-](\d{2}):?(\d{2}))$/i;

/** Whether the offset a date text ends with, if any, is a real one. */
function trailingOffsetInRange(text: string, pattern: RegExp): boolean {
  const m = pattern.exec(text);
  if (!m) return true;
  const [hours, minutes] = m.slice(1).filter((part) => part !== undefined);
  return offsetInRange(hours!, minutes);
}

/**
 * The stored spelling of a time zone, or null when it is none: an IANA name (`america/new_york`
 * becomes `America/New_York`; aliases such as `US/Eastern` stay as given), `UTC`, or a
 * `UTC±H[:MM]` offset up to ±14:00 (luxon reads that form as a fixed offset).
 */
export function canonicalZone(zone: string): string | null {
  // Building the Intl.DateTimeFormat below was a third of a millisecond per event write.
  let canonical = canonicalZones.get(zone);
  if (canonical === undefined) {
    canonical = findCanonicalZone(zone);
    if (canonicalZones.size >= 1000) canonicalZones.clear();
    canonicalZones.set(zone, canonical);
  }
  return canonical;
}

const canonicalZones = new Map<string, string | null>();

function findCanonicalZone(zone: string): string | null {
  if (zone.toUpperCase() === 'UTC') return 'UTC';
  const offset = FIXED_OFFSET.exec(zone);
  if (offset) {
    const [, sign, hours = '0', minutes = '00'] = offset;
    if (!offsetInRange(hours, minutes)) return null;
    return `UTC${sign}${Number(hours)}${minutes === '00' ? '' : `:${minutes}`}`;
  }
  // Intl also takes bare offsets (`+05:00`, `-1500`), up to ±23:59.
  const bare = BARE_OFFSET.exec(zone);
  if (bare && !offsetInRange(bare[1]!, bare[2])) return null;
  if (!isValidZone(zone)) return null;
  const canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  return canonical.toLowerCase() === zone.toLowerCase() ? canonical : zone;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * `YYYY-MM-DD HH:MM:SS` of `dt` in its own zone: Luxon's `toFormat(SQL_FORMAT)`, from the
 * DateTime's fields for years 0–9999 (about a tenth of the cost: writes format several dates).
 */
export function formatSql(dt: DateTime): string {
  const year = dt.year;
  if (!dt.isValid || year < 0 || year > 9999) return dt.toFormat(SQL_FORMAT);
  return (
    `${String(year).padStart(4, '0')}-${pad2(dt.month)}-${pad2(dt.day)} ` +
    `${pad2(dt.hour)}:${pad2(dt.minute)}:${pad2(dt.second)}`
  );
}

/**
 * `YYYY-MM-DD HH:MM:SS` of a UTC instant (epoch milliseconds or a Date, years 0–9999), without
 * building a Luxon DateTime (~0.7 µs against ~4 µs).
 */
export function utcSql(instant: number | Date): string {
  return new Date(instant).toISOString().slice(0, 19).replace('T', ' ');
}

/** Zero-padded string parts of a stored date, as the contract's `*_details` objects. */
export function dateDetails(sql: string): DateDetails {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(sql);
  const [, year = '0000', month = '00', day = '00', hour = '00', minutes = '00', seconds = '00'] =
    m ?? [];
  return { year, month, day, hour, minutes, seconds };
}

/** Reads a stored wall-clock date as a point in time in `zone`. */
export function fromSql(sql: string, zone: string): DateTime {
  return fromSqlFormat(sql.slice(0, 19), zone);
}

const SQL_PARTS = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * `DateTime.fromFormat(text, SQL_FORMAT, { zone })`, in half the time for text of exactly that
 * shape: its parts go straight to `fromObject`, which is where `fromFormat` ends up anyway (same
 * validation, same reading of skipped or repeated wall-clock times).
 */
function fromSqlFormat(text: string, zone: string): DateTime {
  const m = SQL_PARTS.exec(text);
  if (!m) return DateTime.fromFormat(text, SQL_FORMAT, { zone });
  const [, year, month, day, hour, minute, second] = m.map(Number) as number[];
  return DateTime.fromObject({ year, month, day, hour, minute, second }, { zone });
}

/** Converts a wall-clock date of `zone` to its UTC wall clock. */
export function localToUtc(sql: string, zone: string): string {
  return formatSql(fromSql(sql, zone).toUTC());
}

/** ISO 8601 with offset, as JSON-LD wants it (flat: Luxon's text is a rope, see `flatText`). */
export function toIsoWithOffset(sql: string, zone: string): string {
  const iso = fromSql(sql, zone).toISO({ suppressMilliseconds: true });
  return iso === null ? '' : flatText(iso);
}

/** Time-zone abbreviation at an instant (`EST`, `CEST`, `UTC`), from tzdb data like PHP's. */
export function zoneAbbr(zone: string, utcSql: string): string {
  // From epoch milliseconds: moment's string parsing was ~1% of a list's CPU (one per event).
  const ms = Date.parse(`${utcSql.replace(' ', 'T')}Z`);
  // The zone's own table, as moment's zoneAbbr() reads it, without building a moment per event.
  const known = Number.isNaN(ms) ? null : moment.tz.zone(zone);
  if (known) return known.abbr(ms);
  return moment.tz(Number.isNaN(ms) ? `${utcSql.replace(' ', 'T')}Z` : ms, zone).zoneAbbr();
}

const SQL_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/;
const SQL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const ISO_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const TIMESTAMP = /^-?\d{1,12}$/;

/**
 * Parses a date input the way the contract accepts it, in time zone `zone`:
 * `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD`, ISO 8601, Unix timestamps and relative English
 * (`tomorrow 9am`, `next wednesday 4pm`, `+5 days 11am`, `+5 weeks`, `now`).
 * Returns the instant in `zone`, or null when the text is not a date.
 */
export function parseDateInput(input: string | number, zone: string, now: Date): DateTime | null {
  const text = String(input).trim();
  if (text === '') return null;
  let dt: DateTime | null = null;
  if (TIMESTAMP.test(text) && text.length >= 5) {
    dt = DateTime.fromSeconds(Number(text), { zone });
  } else if (SQL_DATE_TIME.test(text)) {
    dt = fromSqlFormat(text.length === 16 ? `${text}:00` : text, zone);
  } else if (SQL_DATE.test(text)) {
    dt = DateTime.fromFormat(text, 'yyyy-LL-dd', { zone });
  } else if (ISO_WITH_ZONE.test(text)) {
    if (!trailingOffsetInRange(text, ISO_OFFSET)) return null;
    dt = DateTime.fromISO(text, { setZone: true }).setZone(zone);
  } else if (ISO_LOCAL.test(text)) {
    dt = DateTime.fromISO(text, { zone });
  } else {
    // chrono ignores offsets it cannot use (`9am -15:00` read as 9am): refuse those first.
    if (!trailingOffsetInRange(text, WORD_OFFSET)) return null;
    dt = parseNaturalLanguage(text, zone, now);
  }
  if (!dt || !dt.isValid || dt.year < 1 || dt.year > 9999) return null;
  return dt.set({ millisecond: 0 });
}

/**
 * Relative English through chrono, evaluated against the wall clock of `zone`: chrono sees that
 * wall clock as if it were UTC, so its components are the wall-clock answer in `zone`.
 */
function parseNaturalLanguage(text: string, zone: string, now: Date): DateTime | null {
  const wall = DateTime.fromJSDate(now).setZone(zone);
  const reference = new Date(
    Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second),
  );
  const results = chrono.parse(text, { instant: reference, timezone: 0 });
  const [result] = results;
  // The whole input must be one date: "before my birthday" must not match "my birthday"-ish parts.
  if (results.length !== 1 || !result || result.text.trim().length !== text.length) return null;
  const c = result.start;
  const offset = c.get('timezoneOffset');
  const explicitZone = c.isCertain('timezoneOffset') && offset !== null;
  // "now" and "+5 days" are computed from the reference wall clock: the certain offset 0 chrono
  // reports for them is the reference's, not one the text gave.
  const tags = result.tags();
  const relativeOffset = tags.has('result/relativeDate') || tags.has('casualReference/now');
  // Like PHP: "tomorrow", "next wednesday", "2018-01-01" mean midnight; "+5 weeks" keeps the time.
  const timeGiven = c.isCertain('hour') || relativeOffset;
  const parts = {
    year: c.get('year') ?? wall.year,
    month: c.get('month') ?? wall.month,
    day: c.get('day') ?? wall.day,
    hour: timeGiven ? (c.get('hour') ?? 0) : 0,
    minute: timeGiven ? (c.get('minute') ?? 0) : 0,
    second: timeGiven ? (c.get('second') ?? 0) : 0,
  };
  if (explicitZone && !relativeOffset) {
    return DateTime.fromObject(parts, { zone: `UTC${offsetSuffix(offset)}` }).setZone(zone);
  }
  return DateTime.fromObject(parts, { zone });
}

function offsetSuffix(minutes: number): string {
  if (minutes === 0) return '';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/** Wall clock "now" in `zone`. */
export function nowIn(zone: string, now: Date): DateTime {
  return DateTime.fromJSDate(now).setZone(zone).set({ millisecond: 0 });
}
