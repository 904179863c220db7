import type { AppContext } from '../context';
import type { PostStatus, Queryable, VenueRow } from '../db';
import { listLinked, type LinkedListArgs } from './linked-post-list';
import {
  assertLinkable,
  createLinked,
  deleteLinked,
  linkForEvent,
  readLinked,
  updateLinked,
  type LinkedInput,
  type LinkedKind,
  type RecordKey,
} from './linked-posts';
import type { Envelope } from '../posts';
import { VENUE_TEXT_COLUMNS, venueColumns, type VenueFields } from './rules';

/** Venues: their own columns; everything else is the shared linked-post logic. */

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

/** Refuses, as an event write would, the first of `ids` that is not a live venue. */
export function assertVenuesLinkable(q: Queryable, ids: readonly number[]): Promise<void> {
  return assertLinkable(q, VENUE_KIND, ids);
}
