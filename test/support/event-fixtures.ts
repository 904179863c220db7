import { localToUtc } from '../../src/lib/dates';
import type { PostStatus, Taxonomy } from '../../src/db/rows';
import type { GqlOptions, TestEnv } from './harness';

/**
 * Rows for the events read tests, inserted straight through Knex so the read side is tested
 * without depending on the write side. Ids come from `post_ids` like real records.
 */

let sequence = 0;
const STAMP = '2026-11-01 10:00:00';

function nextSlug(title: string): string {
  sequence += 1;
  return `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${sequence}`;
}

async function allocate(env: TestEnv, type: string): Promise<number> {
  const [id] = await env.db('post_ids').insert({ type });
  return Number(id);
}

function publishing(title: string, status: PostStatus, slug?: string): Record<string, unknown> {
  return {
    status,
    slug: slug ?? nextSlug(title),
    title,
    description: '',
    excerpt: '',
    author_id: 1,
    date: STAMP,
    date_utc: STAMP,
    modified: STAMP,
    modified_utc: STAMP,
  };
}

export interface EventFixture {
  title?: string;
  slug?: string;
  status?: PostStatus;
  /** Local wall clock in `timezone`. */
  start: string;
  end?: string;
  timezone?: string;
  description?: string;
  excerpt?: string;
  author_id?: number;
  password?: string;
  cost?: string;
  currency_symbol?: string;
  currency_position?: string;
  website?: string;
  all_day?: boolean;
  featured?: boolean;
  sticky?: boolean;
  show_map?: boolean;
  hide_from_listings?: boolean;
  venue_id?: number | null;
  parent_id?: number | null;
  image_id?: number | null;
  categories?: number[];
  tags?: number[];
  organizers?: number[];
}

export async function insertEvent(env: TestEnv, fx: EventFixture): Promise<number> {
  const id = await allocate(env, 'event');
  const timezone = fx.timezone ?? 'UTC';
  const { start, end: givenEnd, categories, tags, organizers, title, slug, status, ...rest } = fx;
  const end = givenEnd ?? start;
  await env.db('events').insert({
    ...publishing(title ?? 'Event', status ?? 'publish', slug),
    ...rest,
    id,
    start_date: start,
    end_date: end,
    utc_start_date: localToUtc(start, timezone),
    utc_end_date: localToUtc(end, timezone),
    timezone,
  });
  const termIds = [...(categories ?? []), ...(tags ?? [])];
  if (termIds.length) {
    await env
      .db('event_terms')
      .insert(termIds.map((term_id, position) => ({ event_id: id, term_id, position })));
  }
  if (organizers?.length) {
    await env
      .db('event_organizers')
      .insert(
        organizers.map((organizer_id, position) => ({ event_id: id, organizer_id, position })),
      );
  }
  return id;
}

export interface VenueFixture {
  title?: string;
  status?: PostStatus;
  city?: string;
  geo_lat?: number | null;
  geo_lng?: number | null;
}

export async function insertVenue(env: TestEnv, fx: VenueFixture = {}): Promise<number> {
  const id = await allocate(env, 'venue');
  const { title, status, ...rest } = fx;
  await env
    .db('venues')
    .insert({ ...publishing(title ?? 'Hall', status ?? 'publish'), ...rest, id });
  return id;
}

export async function insertOrganizer(
  env: TestEnv,
  fx: { title?: string; status?: PostStatus; email?: string } = {},
): Promise<number> {
  const id = await allocate(env, 'organizer');
  const { title, status, ...rest } = fx;
  await env.db('organizers').insert({
    ...publishing(title ?? 'Org', status ?? 'publish'),
    ...rest,
    id,
  });
  return id;
}

/** A category or tag; `count` is a maintained column, so fixtures set it explicitly. */
export async function insertTerm(
  env: TestEnv,
  taxonomy: Taxonomy,
  name: string,
  fx: { slug?: string; count?: number } = {},
): Promise<number> {
  const [id] = await env.db('terms').insert({
    taxonomy,
    name,
    slug: fx.slug ?? name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    description: '',
    parent_id: null,
    count: fx.count ?? 1,
  });
  return Number(id);
}

export async function insertImage(env: TestEnv, url: string): Promise<number> {
  const id = await allocate(env, 'image');
  await env.db('images').insert({
    id,
    url,
    url_hash: `${id}-${url}`.slice(0, 64),
    extension: url.split('.').pop() ?? '',
    width: 800,
    height: 600,
    created_at: STAMP,
  });
  return id;
}

/** Empties the calendar tables (not users), so each test owns the data it lists. */
export async function resetCalendar(env: TestEnv): Promise<void> {
  await env.db('event_terms').delete();
  await env.db('event_organizers').delete();
  await env.db('events').update({ parent_id: null });
  await env.db('events').delete();
  await env.db('venues').delete();
  await env.db('organizers').delete();
  await env.db('terms').delete();
  await env.db('images').delete();
  await env.db('post_ids').delete();
}

const LIST_ARGS: [string, string][] = [
  ['page', 'Int'],
  ['per_page', 'Int'],
  ['start_date', 'String'],
  ['end_date', 'String'],
  ['starts_before', 'String'],
  ['starts_after', 'String'],
  ['ends_before', 'String'],
  ['ends_after', 'String'],
  ['strict_dates', 'Boolean'],
  ['search', 'String'],
  ['categories', '[String!]'],
  ['tags', '[String!]'],
  ['venue', '[Int!]'],
  ['organizer', '[Int!]'],
  ['featured', 'Boolean'],
  ['status', '[PostStatus!]'],
  ['geoloc', 'Boolean'],
  ['geoloc_lat', 'Float'],
  ['geoloc_lng', 'Float'],
  ['geoloc_radius', 'Float'],
  ['include', '[Int!]'],
  ['post_parent', 'Int'],
  ['ticketed', 'Boolean'],
];

/** The `events` query with every argument as a variable; `fields` selects inside `events`. */
export function listQuery(fields = 'id title'): string {
  const vars = LIST_ARGS.map(([n, t]) => `$${n}: ${t}`).join(', ');
  const args = LIST_ARGS.map(([n]) => `${n}: $${n}`).join(', ');
  return `query List(${vars}) { events(${args}) {
    total total_pages rest_url next_rest_url previous_rest_url events { ${fields} } } }`;
}

export interface ListResult {
  total: number;
  total_pages: number;
  rest_url: string;
  next_rest_url: string | null;
  previous_rest_url: string | null;
  events: Record<string, any>[];
}

/** Lists events (failing the test on errors) with these arguments. */
export async function listEvents(
  env: TestEnv,
  args: Record<string, unknown> = {},
  options: GqlOptions & { fields?: string } = {},
): Promise<ListResult> {
  const data = await env.ok<{ events: ListResult }>(listQuery(options.fields), args, options);
  return data.events;
}

/** The titles of the listed events, in order. */
export async function titles(
  env: TestEnv,
  args: Record<string, unknown> = {},
  options: GqlOptions = {},
): Promise<string[]> {
  return (await listEvents(env, args, options)).events.map((e) => e.title as string);
}

/** The first error of a list request that must fail. */
export async function listError(
  env: TestEnv,
  args: Record<string, unknown>,
  options: GqlOptions = {},
): Promise<{ message: string; extensions?: Record<string, any> }> {
  const result = await env.gql(listQuery(), args, options);
  const [error] = result.errors ?? [];
  if (!error) throw new Error(`expected an error, got ${JSON.stringify(result.data)}`);
  return error;
}
