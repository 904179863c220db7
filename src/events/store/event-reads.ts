import type { Knex } from 'knex';
import {
  HotRead,
  POST_COLUMNS,
  rowReader,
  type EventRow,
  type Queryable,
  type VenueRow,
} from '../../db';

/**
 * Events as reads answer them: each with its venue, a to-one relation, read in the same
 * statement (`LEFT JOIN venues`) rather than by the venue loader's own query. The caller primes
 * the venue loader with `venues`, so `Event.venue` is answered from its cache; who may see the
 * venue is still the resolvers' decision. Writes read events alone (`posts.ts`), locking only
 * the event row.
 */

/** Every column of `venues`, in table order; an integration test compares it with the table. */
export const VENUE_COLUMNS = [
  ...POST_COLUMNS,
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

/** The readers of one column list: the event's own columns, and the joined venue's. */
interface Split {
  event: (raw: Record<string, unknown>) => Record<string, unknown>;
  venue: (raw: Record<string, unknown>) => Record<string, unknown>;
}

const VENUE_FIELDS = ALIASES.map(([column, alias]) => [column, alias] as const);
/** Readers by column list: a handful of reads (by id, by slug, pages with or without generation). */
const splits = new Map<string, Split>();

/**
 * The readers for rows with these columns: every event column but the venue's aliases and
 * columns a read adds for itself (`__list_generation`, see src/db/list-counts.ts).
 */
function splitFor(raw: Record<string, unknown>): Split {
  const keys = Object.keys(raw);
  const columns = keys.join(',');
  let split = splits.get(columns);
  if (split === undefined) {
    const own = keys.filter((k) => !k.startsWith(PREFIX) && !k.startsWith('__'));
    split = { event: rowReader(own.map((k) => [k, k] as const)), venue: rowReader(VENUE_FIELDS) };
    if (splits.size < 100) splits.set(columns, split);
  }
  return split;
}

/**
 * Splits joined rows into event rows and venue rows, each normalised as a plain read would, as
 * new objects of one shape each (src/db/row-reader.ts): deleting the aliases from the driver's
 * row would turn it into a slow dictionary-mode object for every resolver that reads it.
 */
export function splitVenues(raws: Record<string, unknown>[]): EventsRead {
  if (raws.length === 0) return { events: [], venues: [] };
  const split = splitFor(raws[0]!);
  const events: EventRow[] = [];
  const venues = new Map<number, VenueRow>();
  for (const raw of raws) {
    events.push(split.event(raw) as unknown as EventRow);
    // Nothing joined: the venue loader, if asked, answers as it did without the join.
    if (raw[VENUE_ID] === null) continue;
    const venue = split.venue(raw) as unknown as VenueRow;
    venues.set(venue.id, venue);
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
