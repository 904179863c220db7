import { DateTime } from 'luxon';
import { canPublish, findUserById, type Viewer } from '../users';
import {
  firstFreeSlug,
  formatSql,
  invalid,
  parseDateInput,
  sanitizeRichText,
  toSlug,
} from '../lib';
import { slugsLike } from './store/posts';
import { LISTABLE_STATUSES, type PostStatus, type PostTable, type Queryable } from '../db';

/** Rules for the publishing fields shared by events, venues and organizers. */

/** Write fields every post type has. Absent keys mean "unchanged" on update; null/"" clears. */
export interface PublishingInput {
  description?: string | null;
  excerpt?: string | null;
  slug?: string | null;
  author?: number | null;
  date?: string | null;
  date_utc?: string | null;
  status?: PostStatus | null;
  website?: string | null;
  image?: string | null;
}

/**
 * Column sizes (migrations): a longer value is a 400 on both databases — never a MySQL "data
 * too long" error (a 500) nor a value SQLite would keep and MySQL refuse. VARCHAR sizes count
 * characters (code points), TEXT sizes bytes.
 */
export const TITLE_MAX = 500;
export const TEXT_MAX = 255;
export const URL_MAX = 2048;
export const TEXT_BYTES_MAX = 65_535;
export const MEDIUMTEXT_BYTES_MAX = 16_777_215;

export function maxChars(name: string, text: string, max: number): string {
  if (text.length > max && Array.from(text).length > max) {
    throw invalid(name, `must be at most ${max} characters`);
  }
  return text;
}

export function maxBytes(name: string, text: string, max: number): string {
  if (Buffer.byteLength(text) > max) throw invalid(name, `must be at most ${max} bytes`);
  return text;
}

/** A required or optional plain-text name: trimmed, non-empty, at most `max` characters. */
export function requireText(
  name: string,
  value: string | null | undefined,
  max = TITLE_MAX,
): string {
  const text = (value ?? '').trim();
  if (text === '') throw invalid(name, 'must be a non-empty string');
  return maxChars(name, text, max);
}

/** Description/excerpt: null clears; HTML sanitised to the allowlist; size of its column. */
export function richText(
  value: string | null | undefined,
  name = 'description',
  limit = MEDIUMTEXT_BYTES_MAX,
): string {
  return value ? maxBytes(name, sanitizeRichText(value), limit) : '';
}

/** A slug unique in `table`: from the given slug or the title, `-2`, `-3` … when taken. */
export async function uniqueSlug(
  q: Queryable,
  table: PostTable,
  requested: string | null | undefined,
  title: string,
  exceptId?: number,
): Promise<string> {
  const base = slugBase(requested, title);
  return firstFreeSlug(base, await slugsLike(q, table, base, exceptId));
}

/** The slug a post asks for before `-2`, `-3` … make it unique: the given one, else the title's. */
export function slugBase(requested: string | null | undefined, title: string): string {
  const fromRequest = requested ? toSlug(requested) : '';
  if (requested && fromRequest === '') throw invalid('slug', 'must contain letters or digits');
  return fromRequest || toSlug(title) || 'untitled';
}

/**
 * A status a write may set (every listable one; `trash` is reached by deleting), or null when
 * none is given. Transports with an enum never send another; imports read any text.
 */
export function checkStatus(requested: string | null | undefined): PostStatus | null {
  if (!requested) return null;
  if (requested === 'trash')
    throw invalid('status', 'cannot be set to trash; delete the record instead');
  if (!(LISTABLE_STATUSES as readonly string[]).includes(requested))
    throw invalid('status', `must be one of ${LISTABLE_STATUSES.join(', ')}`);
  return requested as PostStatus;
}

/**
 * Status scale-back: callers who cannot publish (contributors) get `pending` for publish/future,
 * and `draft` when they send no status. `private` takes the right to publish too (WordPress,
 * wp-admin `_wp_translate_postdata`): without it an update keeps the record's stored status
 * (`previous`) and a create gets `pending`.
 */
export function effectiveStatus(
  viewer: Viewer,
  requested: PostStatus | null | undefined,
  previous?: PostStatus | null,
): PostStatus {
  const publisher = canPublish(viewer);
  const status = checkStatus(requested);
  if (!status) return publisher ? 'publish' : 'draft';
  if (publisher) return status;
  if (status === 'publish' || status === 'future') return 'pending';
  if (status === 'private') return previous ?? 'pending';
  return status;
}

export async function checkAuthor(q: Queryable, author: number): Promise<number> {
  if (!Number.isInteger(author) || author < 1 || !(await findUserById(q, author))) {
    throw invalid('author', 'must be the id of an existing user');
  }
  return author;
}

export interface PublishDates {
  date: string;
  date_utc: string;
}

/**
 * Publication dates from `date` (in `zone`) and/or `date_utc`; `now` when neither is given.
 * `site_zone` is where the stored local `date` lives.
 */
export function publishDates(
  date: string | null | undefined,
  dateUtc: string | null | undefined,
  inputZone: string,
  siteZone: string,
  now: Date,
): PublishDates {
  let instant: DateTime | null = null;
  if (dateUtc) {
    instant = parseDateInput(dateUtc, 'UTC', now);
    if (!instant) throw invalid('date_utc', 'is not a date');
  }
  if (date) {
    const local = parseDateInput(date, inputZone, now);
    if (!local) throw invalid('date', 'is not a date');
    instant ??= local;
  }
  if (!instant) return { ...publishedNow(siteZone, now) };
  return { date: formatSql(instant.setZone(siteZone)), date_utc: formatSql(instant.toUTC()) };
}

// Imports ask for "now" in the site's zone several times per record (~13 µs each through
// luxon): the answer for one instant and zone is kept.
let lastNow: { key: string; dates: PublishDates } | null = null;

function publishedNow(siteZone: string, now: Date): PublishDates {
  const key = `${now.getTime()}|${siteZone}`;
  if (lastNow?.key !== key) {
    const instant = DateTime.fromJSDate(now);
    const dates = {
      date: formatSql(instant.setZone(siteZone)),
      date_utc: formatSql(instant.toUTC()),
    };
    lastNow = { key, dates };
  }
  return lastNow.dates;
}

/** Modification stamps for a write happening now. */
export function modifiedNow(
  siteZone: string,
  now: Date,
): { modified: string; modified_utc: string } {
  const stamps = publishedNow(siteZone, now);
  return { modified: stamps.date, modified_utc: stamps.date_utc };
}

/** `""`/null clears; otherwise an absolute http(s) URL. */
export function checkWebsite(name: string, value: string | null | undefined): string {
  const text = maxChars(name, (value ?? '').trim(), URL_MAX);
  if (text === '') return '';
  if (!isHttpUrl(text)) throw invalid(name, 'must be an absolute http(s) URL or empty');
  return text;
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Has the input this key at all (present, even if null)? Drives partial updates. */
export function has<T extends object>(input: T, key: keyof T): boolean {
  return Object.prototype.hasOwnProperty.call(input, key);
}
