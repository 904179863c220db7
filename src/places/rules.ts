import { InvalidParamError, invalid } from '../lib';
import type { PostRow, PostStatus } from '../db';
import {
  MEDIUMTEXT_BYTES_MAX,
  TEXT_BYTES_MAX,
  TEXT_MAX,
  TITLE_MAX,
  checkWebsite,
  effectiveStatus,
  has,
  maxChars,
  modifiedNow,
  publishDates,
  requireText,
  richText,
  type PublishingInput,
} from '../posts';
import type { Viewer } from '../users';

/**
 * The rule set of venues and organizers: limits as named constants and every field check that
 * needs no database. `create_venue`, venues created inline by event writes, the bulk path and
 * imports all build a record's columns here, so a venue is held to one set of rules.
 */

/** Column sizes (migrations): names are post titles; the other texts VARCHAR(255). */
export const PLACE_NAME_MAX = TITLE_MAX;
export const PLACE_TEXT_MAX = TEXT_MAX;
const PLACE_DESCRIPTION_BYTES_MAX = MEDIUMTEXT_BYTES_MAX;
const PLACE_EXCERPT_BYTES_MAX = TEXT_BYTES_MAX;
export const LATITUDE_MAX = 90;
export const LONGITUDE_MAX = 180;

/** Plain-text columns of venues: stored as given, `""` or null clears. */
export const VENUE_TEXT_COLUMNS = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'stateprovince',
  'zip',
  'phone',
] as const;

/** The columns only venues have, as every venue write (single, inline, bulk) takes them. */
export interface VenueFields {
  address?: string | null;
  city?: string | null;
  country?: string | null;
  province?: string | null;
  state?: string | null;
  stateprovince?: string | null;
  zip?: string | null;
  phone?: string | null;
  website?: string | null;
  show_map?: boolean | null;
  show_map_link?: boolean | null;
  geo_lat?: number | null;
  geo_lng?: number | null;
}

/** The columns only organizers have. */
export interface OrganizerFields {
  phone?: string | null;
  website?: string | null;
  email?: string | null;
}

/** What a create stores in the columns its input leaves out (the migrations' defaults). */
export const VENUE_DEFAULTS: Readonly<Record<string, unknown>> = {
  ...Object.fromEntries(VENUE_TEXT_COLUMNS.map((c) => [c, ''])),
  website: '',
  show_map: true,
  show_map_link: true,
  geo_lat: null,
  geo_lng: null,
  password: '',
  image_id: null,
};
export const ORGANIZER_DEFAULTS: Readonly<Record<string, unknown>> = {
  phone: '',
  website: '',
  email: '',
  password: '',
  image_id: null,
};

/** A venue's or organizer's name: trimmed, non-empty, at most `PLACE_NAME_MAX` characters. */
export function checkPlaceName(resource: string, value: string | null | undefined): string {
  return requireText(resource, value, PLACE_NAME_MAX);
}

/** A latitude/longitude within ±`limit`, or null; anything else is a 400 naming `name`. */
export function coordinate(
  name: string,
  value: number | null | undefined,
  limit: number,
): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isFinite(value) || Math.abs(value) > limit) {
    throw invalid(name, `must be a number between -${limit} and ${limit}`);
  }
  return value;
}

export function venueColumns(input: VenueFields): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  for (const column of VENUE_TEXT_COLUMNS) {
    if (has(input, column)) cols[column] = maxChars(column, input[column] ?? '', PLACE_TEXT_MAX);
  }
  // Flags cannot be cleared: null leaves them (the columns default to true on create).
  if (input.show_map != null) cols.show_map = input.show_map;
  if (input.show_map_link != null) cols.show_map_link = input.show_map_link;
  if (has(input, 'geo_lat')) cols.geo_lat = coordinate('geo_lat', input.geo_lat, LATITUDE_MAX);
  if (has(input, 'geo_lng')) cols.geo_lng = coordinate('geo_lng', input.geo_lng, LONGITUDE_MAX);
  return cols;
}

export function organizerColumns(input: OrganizerFields): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  if (has(input, 'phone')) cols.phone = maxChars('phone', input.phone ?? '', PLACE_TEXT_MAX);
  // Any string: the reference checks no e-mail format, and clients rely on that.
  if (has(input, 'email')) cols.email = maxChars('email', input.email ?? '', PLACE_TEXT_MAX);
  return cols;
}

/** What the publishing rules need besides the input: who writes, where, when. */
export interface PlaceWriter {
  viewer: Viewer;
  siteZone: string;
  now: Date;
  /** The record's stored status, on update (a status the caller may not set keeps it). */
  status?: PostStatus;
}

/**
 * The publishing columns of a venue/organizer write present in `input` (on create, defaults for
 * the absent ones), then the resource's `own` columns, in the reference's order of checks; the
 * first bad field throws. `author` decides `author_id` (it may read the database).
 */
export async function placeColumns<I extends PublishingInput>(
  w: PlaceWriter,
  input: I,
  creating: boolean,
  own: (input: I) => Record<string, unknown>,
  author: () => Promise<number | undefined>,
): Promise<Record<string, unknown>> {
  const cols: Record<string, unknown> = modifiedNow(w.siteZone, w.now);
  // description/excerpt are NOT NULL without a default (TEXT columns cannot have one in MySQL).
  if (creating || has(input, 'description')) {
    cols.description = richText(input.description, 'description', PLACE_DESCRIPTION_BYTES_MAX);
  }
  if (creating || has(input, 'excerpt')) {
    cols.excerpt = richText(input.excerpt, 'excerpt', PLACE_EXCERPT_BYTES_MAX);
  }
  // Fields that cannot be cleared treat null as absent.
  if (creating || input.status != null) {
    cols.status = effectiveStatus(w.viewer, input.status, w.status);
  }
  const authorId = await author();
  if (authorId !== undefined) cols.author_id = authorId;
  if (creating || input.date != null || input.date_utc != null) {
    Object.assign(cols, publishDates(input.date, input.date_utc, w.siteZone, w.siteZone, w.now));
  }
  if (has(input, 'website')) cols.website = checkWebsite('website', input.website);
  return { ...cols, ...own(input) };
}

/** The one reason an event write's venue/organizer id is refused. */
function unknownPlace(resource: string, id: number): InvalidParamError {
  return invalid(resource, `${id} is not the id of an existing ${resource}`);
}

/** A record an event may link: one that exists and is not in the trash. */
export function linkable<Row extends PostRow>(
  resource: string,
  id: number,
  row: Row | undefined,
): Row {
  if (!row || row.status === 'trash') throw unknownPlace(resource, id);
  return row;
}

/**
 * Problems with the fields of a venue/organizer given inside an event write are reported on the
 * event's own parameter (`venue` / `organizer`), where the client sent them.
 */
export function asEventProblem(resource: string, error: unknown): unknown {
  if (!(error instanceof InvalidParamError) || resource in error.params) return error;
  const reasons = Object.entries(error.params).map(([name, reason]) => `${name} ${reason}`);
  return invalid(resource, reasons.join('; '));
}
