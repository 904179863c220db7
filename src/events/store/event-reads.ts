import type { Knex } from 'knex';
import { HotRead, normalizeRow, type EventRow, type Queryable, type VenueRow } from '../../db';

/**
 * Events as reads answer them: each with its venue, a to-one relation, read in the same
 * statement (`LEFT JOIN venues`) rather than by the venue loader's own query. The caller primes
 * the venue loader with `venues`, so `Event.venue` is answered from its cache; who may see the
 * venue is still the resolvers' decision. Writes read events alone (`posts.ts`), locking only
 * the event row.
 */

/** Every column of `venues`, in table order; an integration test compares it with the table. */
export const VENUE_COLUMNS = [
  'id',
  'status',
  'slug',
  'title',
  'description',
  'excerpt',
  'author_id',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'password',
  'image_id',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'website',
  'show_map',
  'show_map_link',
  'geo_lat',
  'geo_lng',
] as const satisfies readonly (keyof VenueRow)[];

/** Venue columns are selected under this prefix, so none collides with an event column. */
const PREFIX = 'venue__';
const ALIASES = VENUE_COLUMNS.map((column) => [column, `${PREFIX}${column}`] as const);
const VENUE_ID = `${PREFIX}id`;

export interface EventsRead {
  events: EventRow[];
  /** The events' venues, each once; none for an event without one (or whose venue is gone). */
  venues: VenueRow[];
}

/** Selects `events.*` and the event's venue (aliased) on a query over `events`. */
export function selectWithVenue(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query
    .select('events.*', ...ALIASES.map(([column, alias]) => `venues.${column} as ${alias}`))
    .leftJoin('venues', 'venues.id', 'events.venue_id');
}

/**
 * Splits joined rows into event rows and venue rows, each normalised as a plain read would. Both
 * are fresh objects: deleting the aliases from the driver's row would turn it into a slow
 * dictionary-mode object for every resolver that reads it.
 */
export function splitVenues(raws: Record<string, unknown>[]): EventsRead {
  const events: EventRow[] = [];
  const venues = new Map<number, VenueRow>();
  for (const raw of raws) {
    const event: Record<string, unknown> = {};
    for (const key in raw) if (!key.startsWith(PREFIX)) event[key] = raw[key];
    events.push(normalizeRow<EventRow>(event));
    // Nothing joined: the venue loader, if asked, answers as it did without the join.
    if (raw[VENUE_ID] === null) continue;
    const venue: Record<string, unknown> = {};
    for (const [column, alias] of ALIASES) venue[column] = raw[alias];
    const row = normalizeRow<VenueRow>(venue);
    venues.set(row.id, row);
  }
  return { events, venues: [...venues.values()] };
}

const BY_IDS = new HotRead((q, ids) => selectWithVenue(q('events')).whereIn('events.id', ids));
// The slug is unique: at most one row.
const BY_SLUG = new HotRead((q, [slug]) =>
  selectWithVenue(q('events')).where('events.slug', slug!),
);

export async function findEventsByIds(q: Queryable, ids: readonly number[]): Promise<EventsRead> {
  if (ids.length === 0) return { events: [], venues: [] };
  return splitVenues(await BY_IDS.run(q, ids));
}

export async function findEventBySlug(q: Queryable, slug: string): Promise<EventsRead> {
  return splitVenues(await BY_SLUG.run(q, [slug]));
}
