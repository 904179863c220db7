import SwaggerParser from '@apidevtools/swagger-parser';
import { ConfigError, loadConfig } from '../../src/config/config';
import { describeEachDb, type Caller, type TestEnv } from '../support/harness';

/**
 * The generic REST view for BI tools (SOFA) under {api_root}/calendar/rest: a GET route per
 * Query field with its OpenAPI document; read-only unless SOFA_MUTATIONS=1.
 */

const BASE = 'http://localhost/wp-json/calendar/rest';

async function call(
  env: TestEnv,
  path: string,
  init: { method?: string; as?: Caller; json?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...(await env.authHeaders(init.as)) };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const response = await env.app.yoga.fetch(`${BASE}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const MUTATION = `mutation ($input: EventInput!) { create_event(input: $input) { id slug } }`;
const DATES = { start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00' };

describe('SOFA_MUTATIONS', () => {
  it('is off by default and takes 1/0/true/false', () => {
    expect(loadConfig({}).sofaMutations).toBe(false);
    expect(loadConfig({ SOFA_MUTATIONS: '1' }).sofaMutations).toBe(true);
    expect(loadConfig({ SOFA_MUTATIONS: 'true' }).sofaMutations).toBe(true);
    expect(loadConfig({ SOFA_MUTATIONS: '0' }).sofaMutations).toBe(false);
    expect(() => loadConfig({ SOFA_MUTATIONS: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ SOFA_MUTATIONS: 'yes' })).toThrow(/^SOFA_MUTATIONS must .*\.$/);
    expect(() => loadConfig({ NAMESPACE_ALIASES: 'calendar/rest' })).toThrow(ConfigError);
  });
});

describeEachDb('SOFA view (read-only by default)', (env) => {
  let jazz: any;
  let draft: any;

  beforeAll(async () => {
    const created = await env.ok(
      MUTATION,
      { input: { title: 'Jazz', ...DATES, venue: { venue: 'Cellar' }, categories: ['Music'] } },
      { as: 'administrator' },
    );
    jazz = created.create_event;
    draft = (
      await env.ok(
        MUTATION,
        { input: { title: 'Draft', ...DATES, status: 'draft' } },
        {
          as: 'administrator',
        },
      )
    ).create_event;
  });

  it('GET /events returns the events list data, filters and all', async () => {
    const { status, body } = await call(env, '/events');
    expect(status).toBe(200);
    expect(body.total).toBe(1);
    expect(body.events).toHaveLength(1);
    expect(body.events[0]).toMatchObject({
      id: jazz.id,
      title: 'Jazz',
      venue: { venue: 'Cellar' },
      categories: [{ name: 'Music' }],
    });
    expect(body.events[0]).not.toHaveProperty('parent'); // GraphQL-only relations stay out
    const graphql = await env.ok(`{ events { total events { id title } } }`);
    expect(body.events.map((e: any) => e.id)).toEqual(graphql.events.events.map((e: any) => e.id));
    const filtered = await call(env, '/events?search=nothing-matches&per_page=5');
    expect(filtered.body).toMatchObject({ total: 0, events: [] });
    const editor = await call(env, '/events?status=draft', { as: 'editor' });
    expect(editor.body.events.map((e: any) => e.id)).toEqual([draft.id]);
  });

  it('GET /event/{id} reads one record, with the contract error codes', async () => {
    const { status, body } = await call(env, `/event/${jazz.id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: jazz.id, slug: jazz.slug });
    const missing = await call(env, '/event/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].extensions).toMatchObject({
      code: 'NOT_FOUND',
      rest_code: 'rest-event-not-found',
    });
    const hidden = await call(env, `/event/${draft.id}`);
    expect(hidden.status).toBe(403);
    expect((await call(env, '/events?per_page=zero')).status).toBe(400);
  });

  it('serves its OpenAPI document, which validates', async () => {
    const { status, body } = await call(env, '/openapi.json');
    expect(status).toBe(200);
    expect(body.servers).toEqual([{ url: 'http://calendar.test/wp-json/calendar/rest' }]);
    expect(body.paths['/events'].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['page', 'per_page', 'start_date', 'categories']),
    );
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/events',
        '/event/{id}',
        '/venues',
        '/organizers',
        '/categories',
        '/tags',
      ]),
    );
    await SwaggerParser.validate(structuredClone(body));
  });

  it('exposes no mutation', async () => {
    const { body } = await call(env, '/openapi.json');
    const methods = Object.values<any>(body.paths).flatMap((p) => Object.keys(p));
    expect(new Set(methods)).toEqual(new Set(['get']));
    expect(body.components.schemas).not.toHaveProperty('Mutation');
    expect(body.components.schemas).not.toHaveProperty('EventInput');
    const create = await call(env, '/create-event', {
      method: 'POST',
      as: 'administrator',
      json: { input: { title: 'Nope', ...DATES } },
    });
    expect(create.status).toBe(404);
    const remove = await call(env, `/delete-event`, {
      method: 'POST',
      as: 'administrator',
      json: { id: jazz.id },
    });
    expect(remove.status).toBe(404);
    expect((await call(env, `/event/${jazz.id}`)).status).toBe(200);
  });
});

describeEachDb(
  'SOFA view with SOFA_MUTATIONS=1',
  (env) => {
    it('exposes the mutations, behind the same authentication', async () => {
      const doc = await call(env, '/openapi.json');
      expect(doc.body.paths['/create-event']).toHaveProperty('post');
      const input = { title: 'Via SOFA', ...DATES };
      const anonymous = await call(env, '/create-event', { method: 'POST', json: { input } });
      expect(anonymous.status).toBe(401);
      const created = await call(env, '/create-event', {
        method: 'POST',
        as: 'administrator',
        json: { input },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ title: 'Via SOFA', status: 'publish' });
      expect((await call(env, `/event/${created.body.id}`)).body.title).toBe('Via SOFA');
    });
  },
  { SOFA_MUTATIONS: '1' },
);
