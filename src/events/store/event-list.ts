import type { Knex } from 'knex';
import { utcSql } from '../../lib';
import type { EditScope } from '../../users';
import { whereTextReadable } from '../../posts';
import { selectWithVenue, splitVenues, type EventsRead } from './event-reads';
import {
  cachedTotal,
  normalizeRows,
  pageAndTotal,
  type PostStatus,
  type Queryable,
  type Taxonomy,
} from '../../db';

/** The SQL of the `events` list: one resolved filter, a count and a page. */

export type DateColumn = 'start_date' | 'end_date';
export type DateOperator = '>=' | '<=' | '<' | '>';

/** One bound on an event's local wall-clock start or end (`YYYY-MM-DD HH:MM:SS`). */
export interface DateBound {
  column: DateColumn;
  op: DateOperator;
  value: string;
}

/** A filter whose references (terms, venues, organizers) are already resolved to ids. */
export interface EventListFilter {
  statuses: readonly PostStatus[];
  dates: readonly DateBound[];
  /** Every word must occur in title, description or excerpt; lowercase already. */
  searchWords: readonly string[];
  /**
   * Events whose password-protected description and excerpt the caller may read
   * (`protectedTextReaders`): search looks into them only there, else into the title alone.
   */
  textReaders: EditScope;
  /** OR within each list, AND between them; null: no filter. */
  categoryIds: readonly number[] | null;
  tagIds: readonly number[] | null;
  venueIds: readonly number[] | null;
  organizerIds: readonly number[] | null;
  featured: boolean | null;
  include: readonly number[] | null;
  parentId: number | null;
  /** Only events whose venue has coordinates. */
  venueWithCoords: boolean;
  /** The venue statuses the caller sees (`visibleStatuses`): a hidden venue selects nothing. */
  venueStatuses: readonly PostStatus[];
  /** Only events at these venues (the result of a radius search); null: no filter. */
  nearVenueIds: readonly number[] | null;
  /**
   * Plan hint, not a filter: published events of the filter's terms (`terms.count`, the
   * smaller of the category and tag sums), which decides how a page is read.
   */
  termEvents?: number | null;
}

/**
 * A day after the wall-clock `YYYY-MM-DD HH:MM:SS`: writes keep an event's end at or after its
 * start in UTC (`END_BEFORE_START`), so its local start is at most a DST shift (hours) after its
 * local end; a day covers every zone. Null at the end of the calendar (DATETIME stops at 9999).
 */
function dayAfter(wall: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(wall);
  if (!m || Number(m[1]) >= 9999) return null;
  const next = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]! + 1, +m[4]!, +m[5]!, +m[6]!));
  // Date.UTC reads years 0-99 as 1900-1999: set the year back explicitly.
  next.setUTCFullYear(+m[1]!, +m[2]! - 1, +m[3]! + 1);
  return utcSql(next);
}

/** `!` escapes LIKE wildcards the same way on MySQL and SQLite (backslash does not). */
function likePattern(word: string): string {
  return `%${word.replace(/[!%_]/g, '!$&')}%`;
}

/**
 * Below this many published events of a filter's terms (`terms.count`), a page is read from the
 * terms' links (then sorted); above it, in list order through `events_list_index`, probing each
 * event's links, which stops after a few rows. MariaDB chose the links of a 10%-category at
 * 100,000 events (10,000 rows read and sorted, ~90 ms); in list order the page reads ~80.
 */
const DENSE_TERM_EVENTS = 2000;

/**
 * `(EXISTS …) = 1` is not merged into a semi-join (MariaDB, MySQL 8): the subquery stays a
 * per-row check on the events met in index order. SQLite runs both forms alike.
 */
function perRow(query: Knex.QueryBuilder, sub: Knex.QueryBuilder): void {
  query.whereRaw('(exists ?) = 1', [sub]);
}

function hasTerm(q: Queryable, ids: readonly number[]): Knex.QueryBuilder {
  return q('event_terms')
    .select(q.raw('1'))
    .whereRaw('event_terms.event_id = events.id')
    .whereIn('event_terms.term_id', ids);
}

function termEvents(q: Queryable, ids: readonly number[]): Knex.QueryBuilder {
  return q('event_terms').select('event_terms.event_id').whereIn('event_terms.term_id', ids);
}

/** The word is in the title, or in a description or excerpt the caller may read. */
function searchMatch(
  w: Knex.QueryBuilder,
  table: string,
  pattern: string,
  readers: EditScope,
): void {
  const like = (b: Knex.QueryBuilder, column: string): void => {
    b.orWhereRaw(`lower(${table}.${column}) like ? escape '!'`, [pattern]);
  };
  like(w, 'title');
  if (readers.kind === 'all') {
    like(w, 'description');
    like(w, 'excerpt');
    return;
  }
  w.orWhere((text) => {
    whereTextReadable(text, table, readers);
    text.where((columns) => {
      like(columns, 'description');
      like(columns, 'excerpt');
    });
  });
}

/**
 * `count`: term filters as `id IN (event ids of the terms)` — SQLite then reads the term's links
 * once instead of probing them for every event of the window; MySQL plans both as the same
 * semi-join. `page` (the ids of one page, see `eventPageQuery`): dense term filters and search
 * words are checked per event in list order (`perRow`), so the page stops after a few rows
 * instead of reading every match (search: MariaDB otherwise walked the index from the first event
 * of the status, past ones included, reading each row).
 */
export function applyFilter(
  q: Queryable,
  query: Knex.QueryBuilder,
  f: EventListFilter,
  use: 'count' | 'page' = 'count',
): void {
  query.whereIn('events.status', f.statuses as PostStatus[]);
  // Hidden events stay readable by id but never list.
  query.where('events.hide_from_listings', 0);
  for (const d of f.dates) query.where(`events.${d.column}`, d.op, d.value);
  // An upper bound on the end implies one on the start, which the index can seek on: without
  // it the range ran from the window's first start to the last event of the table (a week of
  // 1,000,000 events counted ~475,000 index entries, 0.35 s, to find 9,500).
  for (const d of f.dates) {
    const bound =
      d.column === 'end_date' && d.op !== '>=' && d.op !== '>' ? dayAfter(d.value) : null;
    if (bound) query.where('events.start_date', '<=', bound);
  }
  for (const word of f.searchWords) {
    const pattern = likePattern(word);
    if (use === 'count') {
      query.where((w) => searchMatch(w, 'events', pattern, f.textReaders));
    } else {
      const sub = q('events as searched')
        .select(q.raw('1'))
        .whereRaw('searched.id = events.id')
        .where((w) => searchMatch(w, 'searched', pattern, f.textReaders));
      perRow(query, sub);
    }
  }
  const dense = (f.termEvents ?? 0) > DENSE_TERM_EVENTS;
  for (const ids of [f.categoryIds, f.tagIds]) {
    if (!ids) continue;
    if (use === 'count') query.whereIn('events.id', termEvents(q, ids));
    else if (dense) perRow(query, hasTerm(q, ids));
    else query.whereExists(hasTerm(q, ids));
  }
  if (f.venueIds) query.whereIn('events.venue_id', f.venueIds as number[]);
  if (f.nearVenueIds) query.whereIn('events.venue_id', f.nearVenueIds as number[]);
  if (f.organizerIds) {
    query.whereExists(
      q('event_organizers')
        .select(q.raw('1'))
        .whereRaw('event_organizers.event_id = events.id')
        .whereIn('event_organizers.organizer_id', f.organizerIds as number[]),
    );
  }
  if (f.featured !== null) query.where('events.featured', f.featured ? 1 : 0);
  if (f.include) query.whereIn('events.id', f.include as number[]);
  if (f.parentId !== null) query.where('events.parent_id', f.parentId);
  if (f.venueWithCoords) {
    query.whereExists(
      q('venues')
        .select(q.raw('1'))
        .whereRaw('venues.id = events.venue_id')
        .whereIn('venues.status', [...f.venueStatuses])
        .whereNotNull('venues.geo_lat')
        .whereNotNull('venues.geo_lng'),
    );
  }
}

/**
 * What decides a total: the filter without its plan hints; the text readers only with search
 * words (so callers of one role share the totals of every other list).
 */
export function totalKey(f: EventListFilter): string {
  const decisive = (key: string, value: unknown): unknown =>
    key === 'termEvents' || (key === 'textReaders' && f.searchWords.length === 0)
      ? undefined
      : value;
  return `events ${JSON.stringify(f, decisive)}`;
}

function countQuery(q: Queryable, f: EventListFilter): Knex.QueryBuilder {
  const query = q('events').count({ total: '*' });
  applyFilter(q, query, f, 'count');
  return query;
}

/** The exact total, cached while no calendar write happened (`list-counts.ts`). */
export async function countEvents(q: Queryable, f: EventListFilter): Promise<number> {
  return cachedTotal(q, totalKey(f), countQuery(q, f));
}

/**
 * The exact total and one page (`findEventPage`): with a kept total, one statement
 * (`pageAndTotal`); the page is read only when it has rows.
 */
export async function findEventPageAndTotal(
  q: Queryable,
  f: EventListFilter,
  limit: number,
  offset: number,
): Promise<EventsRead & { total: number }> {
  const { total, rows } = await pageAndTotal(
    q,
    totalKey(f),
    () => countQuery(q, f),
    {
      key: `events ${limit} ${offset} ${JSON.stringify(f)}`,
      build: () => eventPageQuery(q, f, limit, offset),
    },
    offset,
  );
  return { total, ...inListOrder(f, rows) };
}

/** Where a keyset page starts: strictly after this row of the list (its sort key). */
export interface EventSeek {
  start_date: string;
  id: number;
}

/**
 * Rows strictly after `after` in list order: `(start_date, id) > (…)` spelled as a range on
 * `start_date` plus the tie-break on `id`, which both engines seek in `events_list_index` (a row
 * constructor is not range-optimised by every MariaDB). `include` lists are by id alone.
 */
function applySeek(query: Knex.QueryBuilder, f: EventListFilter, after: EventSeek): void {
  if (f.include) {
    query.where('events.id', '>', after.id);
    return;
  }
  query.where('events.start_date', '>=', after.start_date).where((w) => {
    w.where('events.start_date', '>', after.start_date).orWhere('events.id', '>', after.id);
  });
}

/** One page, by local start then id (by id for `include` lists), with the events' venues. */
export async function findEventPage(
  q: Queryable,
  f: EventListFilter,
  limit: number,
  offset: number,
  after: EventSeek | null = null,
): Promise<EventsRead> {
  return inListOrder(f, (await eventPageQuery(q, f, limit, offset, after)) as PageRow[]);
}

export function inListOrder(f: EventListFilter, rows: PageRow[]): EventsRead {
  return splitVenues(rows.sort(f.include ? byId : byStartThenId));
}

export type PageRow = Record<string, unknown>;
const byId = (a: PageRow, b: PageRow): number => (a.id as number) - (b.id as number);
/** `start_date` is `YYYY-MM-DD HH:MM:SS` text on both engines: text order is time order. */
const byStartThenId = (a: PageRow, b: PageRow): number =>
  a.start_date === b.start_date
    ? byId(a, b)
    : (a.start_date as string) < (b.start_date as string)
      ? -1
      : 1;

/**
 * The page's query: its ids first, read in list order from `events_list_index` (index-only for
 * the window; skipped rows of a deep page cost no row reads), then those rows. The default list
 * reads 10 index entries and 10 rows whatever the size of the table; as one `SELECT events.*`
 * MariaDB read it through the index's first two columns and skipped every past event. Each row
 * brings its venue (`event-reads.ts`): a primary-key lookup per row of the page. `after`: a
 * keyset page (exports), which reads no skipped rows at any depth.
 */
export function eventPageQuery(
  q: Queryable,
  f: EventListFilter,
  limit: number,
  offset: number,
  after: EventSeek | null = null,
): Knex.QueryBuilder {
  const order = f.include
    ? [{ column: 'events.id' }]
    : [{ column: 'events.start_date' }, { column: 'events.id' }];
  const ids = q('events').select('events.id');
  applyFilter(q, ids, f, 'page');
  if (after) applySeek(ids, f, after);
  ids.orderBy(order).limit(limit).offset(offset);
  // No outer ORDER BY: MariaDB would copy the page into a temporary table to sort it again
  // (~180 µs of server time per page, measured); `findEventPage` puts its ≤ 50 rows in order.
  return selectWithVenue(q('events').join(ids.as('page'), 'page.id', 'events.id'));
}

export interface TermKey {
  id: number;
  taxonomy: Taxonomy;
  slug: string;
  /** Published events using the term (`terms.count`). */
  count: number;
}

/** Terms of these taxonomies matching any of the slugs or ids: one query for a whole request. */
export async function findTermKeys(
  q: Queryable,
  wanted: { taxonomy: Taxonomy; slugs: string[]; ids: number[] }[],
): Promise<TermKey[]> {
  const asked = wanted.filter((w) => w.slugs.length || w.ids.length);
  if (asked.length === 0) return [];
  const rows = await q('terms')
    .select('id', 'taxonomy', 'slug', 'count')
    .where((outer) => {
      for (const w of asked) {
        outer.orWhere((inner) => {
          inner.where('taxonomy', w.taxonomy).andWhere((any) => {
            if (w.slugs.length) any.orWhereIn('slug', w.slugs);
            if (w.ids.length) any.orWhereIn('id', w.ids);
          });
        });
      }
    });
  return rows.map((r: TermKey) => ({
    id: Number(r.id),
    taxonomy: r.taxonomy,
    slug: r.slug,
    count: Number(r.count),
  }));
}

export interface PostKind {
  /** `event`, `venue`, `organizer` or `image`. */
  type: string;
  /** The record's status; null for an image (or an id whose record is gone). */
  status: PostStatus | null;
}

/** The kind and status of each existing id of the shared id space, in one query. */
export async function postKinds(
  q: Queryable,
  ids: readonly number[],
): Promise<Map<number, PostKind>> {
  if (ids.length === 0) return new Map();
  const rows: { id: number; type: string; status: PostStatus | null }[] = await q('post_ids')
    .select(
      'post_ids.id',
      'post_ids.type',
      q.raw('coalesce(events.status, venues.status, organizers.status) as status'),
    )
    .leftJoin('events', 'events.id', 'post_ids.id')
    .leftJoin('venues', 'venues.id', 'post_ids.id')
    .leftJoin('organizers', 'organizers.id', 'post_ids.id')
    .whereIn('post_ids.id', ids as number[]);
  return new Map(rows.map((r) => [Number(r.id), { type: r.type, status: r.status }]));
}

export interface GeoBox {
  minLat: number;
  maxLat: number;
  /** Null when the box spans every longitude (near a pole or across the antimeridian). */
  minLng: number | null;
  maxLng: number | null;
}

export interface VenuePoint {
  id: number;
  geo_lat: number;
  geo_lng: number;
}

/**
 * Venues of these statuses (those the caller sees) inside a bounding box: the index-friendly
 * first cut of a radius search.
 */
export async function venuesInBox(
  q: Queryable,
  box: GeoBox,
  statuses: readonly PostStatus[],
): Promise<VenuePoint[]> {
  const query = q('venues')
    .select('id', 'geo_lat', 'geo_lng')
    .whereIn('status', [...statuses])
    .whereBetween('geo_lat', [box.minLat, box.maxLat])
    .whereNotNull('geo_lng');
  if (box.minLng !== null && box.maxLng !== null) {
    query.whereBetween('geo_lng', [box.minLng, box.maxLng]);
  }
  return normalizeRows<VenuePoint>(await query);
}
