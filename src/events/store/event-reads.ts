import type { Knex } from 'knex';
import {
  HotRead,
  POST_COLUMNS,
  rowReader,
  type EventRow,
  type Queryable,
  type VenueRow,
} from '../../db';
import {
  groupLinks,
  INTEGER_COLUMNS,
  linkParts,
  LINK_PREFIX,
  nullLinkColumns,
  type EventLinks,
} from './links';

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

/** Every column of `events`, in table order; an integration test compares it with the table. */
export const EVENT_COLUMNS = [
  ...POST_COLUMNS,
  'start_date',
  'end_date',
  'utc_start_date',
  'utc_end_date',
  'timezone',
  'all_day',
  'cost',
  'currency_symbol',
  'currency_code',
  'currency_position',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'venue_id',
  'parent_id',
] as const satisfies readonly (keyof EventRow)[];

/** Venue columns are selected under this prefix, so none collides with an event column. */
const PREFIX = 'venue__';
const ALIASES = VENUE_COLUMNS.map((column) => [column, `${PREFIX}${column}`] as const);
const VENUE_ID = `${PREFIX}id`;

export interface EventsRead {
  events: EventRow[];
  /** The events' venues, each once; none for an event without one (or whose venue is gone). */
  venues: VenueRow[];
  /** The events' organizers and terms, when the read brought them (`findEventsWithLinks`). */
  links?: Map<number, EventLinks>;
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

/** `link_kind` of an event's own row in a read with its links (links.ts has 0 and 1). */
const EVENT_ROW = 2;

/**
 * Events with their venues and their links (organizers, categories, tags) in one statement: the
 * event rows UNION ALL the link rows of both link tables, each part selecting the others'
 * columns as NULL (`where` picks the events; `ids` selects their ids for the link parts). A
 * statement is a round trip that wakes the database: the union took ~10 % off the server CPU of
 * a single-event read (docs/performance.md). Only reads by primary or unique key use it: the
 * link parts look the events up again, cheap for a key, not for a list's page.
 */
function withLinks(
  q: Queryable,
  where: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
  ids: readonly (number | string)[] | Knex.QueryBuilder,
): Knex.QueryBuilder {
  const events = where(
    q('events')
      .select(
        q.raw(`${EVENT_ROW} as link_kind`),
        ...EVENT_COLUMNS.map((column) => `events.${column}`),
        ...ALIASES.map(([column, alias]) => `venues.${column} as ${alias}`),
        ...nullLinkColumns(q),
      )
      .leftJoin('venues', 'venues.id', 'events.venue_id'),
  );
  return events.unionAll(linkParts(q, ids, EVENT_COLUMNS.length + ALIASES.length));
}

/** Readers of the event rows of `withLinks` (integers arrive as text there, see links.ts). */
const WITH_LINKS = {
  event: rowReader(
    EVENT_COLUMNS.map((column) => [column, column] as const),
    INTEGER_COLUMNS,
  ),
  venue: rowReader(VENUE_FIELDS, INTEGER_COLUMNS),
};

/** Splits the rows of `withLinks` into events, their venues and their links. */
function splitWithLinks(raws: Record<string, unknown>[]): Required<EventsRead> {
  const events: EventRow[] = [];
  const venues = new Map<number, VenueRow>();
  const links: Record<string, unknown>[] = [];
  for (const raw of raws) {
    if (Number(raw.link_kind) !== EVENT_ROW) {
      links.push(raw);
      continue;
    }
    events.push(WITH_LINKS.event(raw) as unknown as EventRow);
    if (raw[VENUE_ID] === null) continue;
    const venue = WITH_LINKS.venue(raw) as unknown as VenueRow;
    venues.set(venue.id, venue);
  }
  const grouped = groupLinks(links, LINK_PREFIX);
  for (const event of events) {
    if (!grouped.has(event.id)) grouped.set(event.id, { organizers: [], terms: [] });
  }
  return { events, venues: [...venues.values()], links: grouped };
}

const BY_IDS = new HotRead((q, ids) => selectWithVenue(q('events')).whereIn('events.id', ids));

export async function findEventsByIds(q: Queryable, ids: readonly number[]): Promise<EventsRead> {
  if (ids.length === 0) return { events: [], venues: [] };
  return splitVenues(await BY_IDS.run(q, ids));
}

/** The keys: the ids three times, once per part of the union. */
const BY_IDS_WITH_LINKS = new HotRead((q, keys) => {
  const ids = keys.slice(0, keys.length / 3);
  return withLinks(q, (query) => query.whereIn('events.id', ids), ids);
});

/** The keys: the slug three times (it is unique: at most one event). */
const BY_SLUG_WITH_LINKS = new HotRead((q, [slug]) =>
  withLinks(
    q,
    (query) => query.where('events.slug', slug!),
    q('events').select('id').where('slug', slug!),
  ),
);

/** `findEventsByIds` with every event's links (`EventsRead.links`), in the same statement. */
export async function findEventsWithLinks(
  q: Queryable,
  ids: readonly number[],
): Promise<Required<EventsRead>> {
  if (ids.length === 0) return { events: [], venues: [], links: new Map() };
  return splitWithLinks(await BY_IDS_WITH_LINKS.run(q, [...ids, ...ids, ...ids]));
}

/** The event of a slug, with its venue and links (one statement). */
export async function findEventBySlug(q: Queryable, slug: string): Promise<Required<EventsRead>> {
  return splitWithLinks(await BY_SLUG_WITH_LINKS.run(q, [slug, slug, slug]));
}
