import { normalizeRow } from '../../../src/db/queryable';
import type { EventRow } from '../../../src/db/rows';
import type { Caller, GqlResult, TestEnv } from '../../support/harness';

/** Helpers shared by the event-write suites. Writes run as the administrator unless `as` says otherwise. */

/**
 * Event fields that render straight from the row, so these suites do not depend on the Event
 * resolvers; everything else is asserted on the stored rows.
 */
export const FIELDS =
  'id title slug status timezone all_day start_date end_date utc_start_date utc_end_date';

export interface EventOut {
  id: number;
  title: string;
  slug: string;
  status: string;
  timezone: string;
  all_day: boolean;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
}

export const CREATE = `mutation ($input: EventInput!) { create_event(input: $input) { ${FIELDS} } }`;
export const UPDATE = `mutation ($id: Int!, $input: EventInput!) { update_event(id: $id, input: $input) { ${FIELDS} } }`;
export const UPDATE_BY_SLUG = `mutation ($slug: String!, $input: EventInput!) { update_event_by_slug(slug: $slug, input: $input) { ${FIELDS} } }`;
export const DELETE = `mutation ($id: Int!, $force: Boolean) { delete_event(id: $id, force: $force) { ${FIELDS} } }`;
export const DELETE_BY_SLUG = `mutation ($slug: String!, $force: Boolean) { delete_event_by_slug(slug: $slug, force: $force) { ${FIELDS} } }`;

let counter = 0;
/** A title no other test uses, so generated slugs never collide across tests. */
export function uniqueTitle(prefix = 'Event'): string {
  counter += 1;
  return `${prefix} ${Date.now().toString(36)} ${counter}`;
}

/** The smallest valid create input, with a unique title. */
export function minimal(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: uniqueTitle(),
    start_date: '2027-01-10 10:00:00',
    end_date: '2027-01-10 12:00:00',
    ...extra,
  };
}

export async function createEvent(
  env: TestEnv,
  input: Record<string, unknown>,
  as: Caller = 'administrator',
): Promise<EventOut> {
  const data = await env.ok<{ create_event: EventOut }>(CREATE, { input }, { as });
  return data.create_event;
}

export async function updateEvent(
  env: TestEnv,
  id: number,
  input: Record<string, unknown>,
  as: Caller = 'administrator',
): Promise<EventOut> {
  const data = await env.ok<{ update_event: EventOut }>(UPDATE, { id, input }, { as });
  return data.update_event;
}

/** The stored event row, normalised like the repositories return it. */
export async function eventRow(env: TestEnv, id: number): Promise<EventRow | undefined> {
  const raw = await env.db('events').where({ id }).first();
  return raw ? normalizeRow<EventRow>(raw) : undefined;
}

export async function storedEvent(env: TestEnv, id: number): Promise<EventRow> {
  const row = await eventRow(env, id);
  if (!row) throw new Error(`event ${id} is not stored`);
  return row;
}

/** The single error of a result. */
export function errorOf(result: GqlResult): {
  message: string;
  extensions?: Record<string, any>;
} {
  expect(result.errors).toHaveLength(1);
  const [error] = result.errors ?? [];
  if (!error) throw new Error('no error');
  return error;
}

/**
 * Runs a write that must fail and proves it changed nothing: every table is identical before
 * and after. Returns the error's extensions.
 */
export async function rejected(
  env: TestEnv,
  query: string,
  variables: Record<string, unknown>,
  as: Caller = 'administrator',
): Promise<Record<string, any>> {
  await env.authHeaders(as); // create the role's user before the "before" snapshot
  const before = await env.snapshot();
  const result = await env.gql(query, variables, { as });
  const error = errorOf(result);
  expect(await env.snapshot()).toEqual(before);
  return error.extensions ?? {};
}

/** `rejected` for a 400 `rest_invalid_param` naming exactly these parameters. */
export async function rejectedParams(
  env: TestEnv,
  query: string,
  variables: Record<string, unknown>,
  params: string[],
  as: Caller = 'administrator',
): Promise<Record<string, string>> {
  const ext = await rejected(env, query, variables, as);
  expect(ext).toMatchObject({ code: 'BAD_USER_INPUT', rest_code: 'rest_invalid_param' });
  expect(Object.keys(ext.params ?? {}).sort()).toEqual([...params].sort());
  return ext.params;
}

/** A post id allocated like the app does (events, venues, organizers and images share them). */
async function allocate(env: TestEnv, type: string): Promise<number> {
  const [id] = await env.db('post_ids').insert({ type });
  return Number(id);
}

const PUBLISHING = {
  status: 'publish',
  description: '',
  excerpt: '',
  date: '2026-01-01 00:00:00',
  date_utc: '2026-01-01 00:00:00',
  modified: '2026-01-01 00:00:00',
  modified_utc: '2026-01-01 00:00:00',
  password: '',
};

/** Inserts a venue straight into the database, so a suite needs no venue service. */
export async function seedVenue(env: TestEnv, name = uniqueTitle('Venue')): Promise<number> {
  const id = await allocate(env, 'venue');
  const author_id = await env.userId('administrator');
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  await env.db('venues').insert({ ...PUBLISHING, id, title: name, slug, author_id });
  return id;
}

export async function seedOrganizer(env: TestEnv, name = uniqueTitle('Org')): Promise<number> {
  const id = await allocate(env, 'organizer');
  const author_id = await env.userId('administrator');
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  await env.db('organizers').insert({ ...PUBLISHING, id, title: name, slug, author_id });
  return id;
}

export async function seedTerm(
  env: TestEnv,
  taxonomy: 'category' | 'tag',
  name = uniqueTitle('Term'),
): Promise<number> {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const [id] = await env.db('terms').insert({ taxonomy, name, slug, description: '', count: 0 });
  return Number(id);
}

/** Links of an event as stored: organizers and terms in position order. */
export async function linksOf(
  env: TestEnv,
  eventId: number,
): Promise<{ organizers: number[]; terms: number[] }> {
  const organizers = await env
    .db('event_organizers')
    .where({ event_id: eventId })
    .orderBy('position');
  const terms = await env.db('event_terms').where({ event_id: eventId }).orderBy('position');
  return {
    organizers: organizers.map((r: { organizer_id: number }) => Number(r.organizer_id)),
    terms: terms.map((r: { term_id: number }) => Number(r.term_id)),
  };
}
