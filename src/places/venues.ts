import type { AppContext } from '../context';
import { invalid } from '../lib/errors';
import type { Queryable } from '../db/queryable';
import type { PostStatus, VenueRow } from '../db/rows';
import { listLinked, type LinkedListArgs } from './linked-post-list';
import {
  createLinked,
  deleteLinked,
  linkForEvent,
  readLinked,
  updateLinked,
  type LinkedInput,
  type LinkedKind,
  type RecordKey,
} from './linked-posts';
import type { Envelope } from '../posts/paging';
import { has, maxChars, TEXT_MAX } from '../posts/fields';

/** Venues: their own columns; everything else is the shared linked-post logic. */

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

/** A venue given inside an event write (GraphQL `EventVenueInput`). */
export interface EventVenueInput extends VenueFields {
  id?: number | null;
  venue?: string | null;
  description?: string | null;
  image?: string | null;
  status?: PostStatus | null;
}

/** GraphQL `VenueInput`. */
export interface VenueInput extends LinkedInput, Omit<EventVenueInput, 'id'> {}

export interface VenueList extends Envelope {
  venues: VenueRow[];
}

/** Plain-text columns: stored as given, `""` or null clears (single and bulk writes). */
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

function venueColumns(input: VenueInput): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  for (const column of VENUE_TEXT_COLUMNS) {
    if (has(input, column)) cols[column] = maxChars(column, input[column] ?? '', TEXT_MAX);
  }
  // Flags cannot be cleared: null leaves them (the columns default to true on create).
  if (input.show_map != null) cols.show_map = input.show_map;
  if (input.show_map_link != null) cols.show_map_link = input.show_map_link;
  if (has(input, 'geo_lat')) cols.geo_lat = coordinate('geo_lat', input.geo_lat, 90);
  if (has(input, 'geo_lng')) cols.geo_lng = coordinate('geo_lng', input.geo_lng, 180);
  return cols;
}

export const VENUE_KIND: LinkedKind<VenueRow, VenueInput> = {
  resource: 'venue',
  table: 'venues',
  // The stored `stateprovince` suffices: a derived one is `state` or `province`, searched too.
  searchFields: ['title', 'description', 'excerpt', ...VENUE_TEXT_COLUMNS],
  ownColumns: venueColumns,
  loader: (ctx) => ctx.loaders.venue,
};

export async function listVenues(ctx: AppContext, args: LinkedListArgs): Promise<VenueList> {
  const { rows, ...env } = await listLinked(ctx, VENUE_KIND, args);
  return { venues: rows, ...env };
}

/** Single read by id or slug; the answer carries `json_ld`. */
export function readVenue(ctx: AppContext, key: RecordKey): Promise<VenueRow> {
  return readLinked(ctx, VENUE_KIND, key);
}

export function createVenue(ctx: AppContext, input: VenueInput): Promise<VenueRow> {
  return createLinked(ctx, VENUE_KIND, input);
}

export function updateVenue(ctx: AppContext, key: RecordKey, input: VenueInput): Promise<VenueRow> {
  return updateLinked(ctx, VENUE_KIND, key, input);
}

export function deleteVenue(ctx: AppContext, key: RecordKey, force: boolean): Promise<VenueRow> {
  return deleteLinked(ctx, VENUE_KIND, key, force);
}

/**
 * The venue id an event write links: `{id}` must be an existing, non-trashed venue (else 400
 * `rest_invalid_param` on `venue`); other fields create a venue (de-duplicated, exactly as
 * `create_venue`) inside `q`, the caller's transaction.
 */
export async function venueForEvent(
  ctx: AppContext,
  q: Queryable,
  input: EventVenueInput,
): Promise<number> {
  return (await venueRowForEvent(ctx, q, input)).id;
}

/** `venueForEvent`, answering the venue's row (as read or written inside `q`). */
export function venueRowForEvent(
  ctx: AppContext,
  q: Queryable,
  input: EventVenueInput,
): Promise<VenueRow> {
  return linkForEvent(ctx, q, VENUE_KIND, input);
}
