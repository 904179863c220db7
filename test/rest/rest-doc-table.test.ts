import SwaggerParser from '@apidevtools/swagger-parser';
import { loadConfig } from '../../src/config/config';
import { compileRoutes } from '../../src/rest/compile';
import { openApiDocument } from '../../src/rest/openapi/doc';
import { namespaceIndex } from '../../src/rest';
import { ROUTES, type RouteRow } from '../../src/rest/routes';
import { buildSchema } from '../../src/graphql/schema';
import { createApp, type App } from '../../src/http/server';
import { describeEachDb } from '../support/harness';

/**
 * GET / and GET /doc are generated from the route table they are given: a copy of the table
 * with one more row (the module's table untouched) yields one more route in both, and the
 * route answers.
 */

const EXTRA: RouteRow = {
  path: '/featured-events',
  methods: ['GET'],
  summary: 'Lists featured events.',
  operation: { type: 'query', field: 'events' },
  notes: { featured: { description: 'Only featured events (default true).', default: true } },
  status: 200,
  resource: 'event',
  present: 'eventList',
};

const TABLE: readonly RouteRow[] = [...ROUTES, EXTRA];

describe('the /doc and / builders', () => {
  it('take the table as a parameter', async () => {
    const config = loadConfig({ SITE_URL: 'http://calendar.test' });
    const schema = buildSchema();
    const routes = compileRoutes(schema, TABLE);
    const doc = openApiDocument(config, schema, routes, 'calendar/events/v1') as any;
    expect(Object.keys(doc.paths)).toHaveLength(15);
    expect(Object.keys(doc.paths).at(-1)).toBe('/featured-events');
    await SwaggerParser.validate(structuredClone(doc));
    const index = namespaceIndex(config, routes, 'calendar/events/v1') as any;
    expect(Object.keys(index.routes).at(-1)).toBe('/calendar/events/v1/featured-events');
    expect(ROUTES).not.toContain(EXTRA);
  });
});

describeEachDb('GET / and GET /doc with an extra route row', (env) => {
  let app: App;
  const get = async (path: string) => {
    const response = await app.yoga.fetch(`http://localhost/wp-json/calendar/events/v1${path}`);
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    app = await createApp({ config: env.config, db: env.db, now: () => env.now, routes: TABLE });
  });

  it('lists the new route in GET /', async () => {
    const { body } = await get('/');
    const route = body.routes['/calendar/events/v1/featured-events'];
    expect(route).toMatchObject({
      namespace: 'calendar/events/v1',
      methods: ['GET'],
      _links: {
        self: [{ href: 'http://calendar.test/wp-json/calendar/events/v1/featured-events' }],
      },
    });
    expect(route.endpoints[0].args.featured).toEqual({
      type: 'boolean',
      description: 'Only featured events (default true).',
      required: false,
      default: true,
    });
    expect(route.endpoints[0].args).toHaveProperty('per_page');
  });

  it('documents the new path in GET /doc, still a valid document', async () => {
    const { body } = await get('/doc');
    expect(Object.keys(body.paths)).toHaveLength(15);
    const operation = body.paths['/featured-events'].get;
    expect(operation.summary).toBe('Lists featured events.');
    expect(operation.parameters.find((p: any) => p.name === 'featured')).toMatchObject({
      in: 'query',
      schema: { type: 'boolean', default: true },
    });
    expect(Object.keys(operation.responses)).toEqual(['200', '400', '404']);
    await SwaggerParser.validate(structuredClone(body));
  });

  it('routes the new row, while the default app does not have it', async () => {
    const { status, body } = await get('/featured-events?featured=true');
    expect(status).toBe(200);
    expect(body).toMatchObject({ events: [], total: 0 });
    const plain = await env.app.yoga.fetch(
      'http://localhost/wp-json/calendar/events/v1/featured-events',
    );
    expect(plain.status).toBe(404);
    const index = await (
      await env.app.yoga.fetch('http://localhost/wp-json/calendar/events/v1/')
    ).json();
    expect(Object.keys((index as any).routes)).toHaveLength(15);
  });
});
