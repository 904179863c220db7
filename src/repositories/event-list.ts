import type { Knex } from 'knex';
import { normalizeRows, type Queryable } from './queryable';
import type { EventRow, PostStatus, Taxonomy } from './rows';

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
  /** OR within each list, AND between them; null: no filter. */
  categoryIds: readonly number[] | null;
  tagIds: readonly number[] | null;
  venueIds: readonly number[] | null;
  organizerIds: readonly number[] | null;
  featured: boolean | null;
  include: readonly number[] | null;
  parentId: number | null;
  /** Only events whose (non-trashed) venue has coordinates. */
  venueWithCoords: boolean;
  /** Only events at these venues (the result of a radius search); null: no filter. */
  nearVenueIds: readonly number[] | null;
}

/** `!` escapes LIKE wildcards the same way on MySQL and SQLite (backslash does not). */
function likePattern(word: string): string {
  return `%${word.replace(/[!%_]/g, '!$&')}%`;
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

/**
 * `forCount`: term filters as `id IN (event ids of the terms)` — SQLite then reads the term's
 * links once (`event_terms_term_index`) instead of probing them for every event of the window
 * (5× faster at 100k events); a page stops after a few rows, so it keeps the per-row EXISTS.
 * MySQL plans both as the same semi-join.
 */
export function applyFilter(
  q: Queryable,
  query: Knex.QueryBuilder,
  f: EventListFilter,
  forCount = false,
): void {
  query.whereIn('events.status', f.statuses as PostStatus[]);
  // Hidden events stay readable by id but never list.
  query.where('events.hide_from_listings', 0);
  for (const d of f.dates) query.where(`events.${d.column}`, d.op, d.value);
  for (const word of f.searchWords) {
    const pattern = likePattern(word);
    query.where((w) => {
      for (const column of ['title', 'description', 'excerpt']) {
        w.orWhereRaw(`lower(events.${column}) like ? escape '!'`, [pattern]);
      }
    });
  }
  for (const ids of [f.categoryIds, f.tagIds]) {
    if (!ids) continue;
    if (forCount) query.whereIn('events.id', termEvents(q, ids));
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
        .whereNot('venues.status', 'trash')
        .whereNotNull('venues.geo_lat')
        .whereNotNull('venues.geo_lng'),
    );
  }
}

export async function countEvents(q: Queryable, f: EventListFilter): Promise<number> {
  const query = q('events').count<{ n: number | string }[]>({ n: '*' });
  applyFilter(q, query, f, true);
  const [row] = await query;
  return Number(row?.n ?? 0);
}

/** One page, by local start then id (by id for `include` lists). */
export async function findEventPage(
  q: Queryable,
  f: EventListFilter,
  limit: number,
  offset: number,
): Promise<EventRow[]> {
  return normalizeRows<EventRow>(await eventPageQuery(q, f, limit, offset));
}

/** The page's query. */
function eventPageQuery(
  q: Queryable,
  f: EventListFilter,
  limit: number,
  offset: number,
): Knex.QueryBuilder {
  const query = q('events').select('events.*');
  applyFilter(q, query, f);
  if (f.include) query.orderBy('events.id', 'asc');
  else query.orderBy([{ column: 'events.start_date' }, { column: 'events.id' }]);
  return query.limit(limit).offset(offset);
}

export interface TermKey {
  id: number;
  taxonomy: Taxonomy;
  slug: string;
}

/** Terms of these taxonomies matching any of the slugs or ids: one query for a whole request. */
export async function findTermKeys(
  q: Queryable,
  wanted: { taxonomy: Taxonomy; slugs: string[]; ids: number[] }[],
): Promise<TermKey[]> {
  const asked = wanted.filter((w) => w.slugs.length || w.ids.length);
  if (asked.length === 0) return [];
  const rows = await q('terms')
    .select('id', 'taxonomy', 'slug')
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
  return rows.map((r: TermKey) => ({ id: Number(r.id), taxonomy: r.taxonomy, slug: r.slug }));
}

/** The kind (`event`, `venue`, `organizer`, `image`) of each existing id of the shared id space. */
export async function postTypes(
  q: Queryable,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows: { id: number; type: string }[] = await q('post_ids')
    .select('id', 'type')
    .whereIn('id', ids as number[]);
  return new Map(rows.map((r) => [Number(r.id), r.type]));
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

/** Non-trashed venues inside a bounding box: the index-friendly first cut of a radius search. */
export async function venuesInBox(q: Queryable, box: GeoBox): Promise<VenuePoint[]> {
  const query = q('venues')
    .select('id', 'geo_lat', 'geo_lng')
    .whereNot('status', 'trash')
    .whereBetween('geo_lat', [box.minLat, box.maxLat])
    .whereNotNull('geo_lng');
  if (box.minLng !== null && box.maxLng !== null) {
    query.whereBetween('geo_lng', [box.minLng, box.maxLng]);
  }
  return normalizeRows<VenuePoint>(await query);
}
