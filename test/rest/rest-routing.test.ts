import { createLogger } from '../../src/http/logger';
import { describeEachDb } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { expectGraphqlAgrees } from '../support/rest/rest-twin';

/**
 * Routing, GET /, GET /doc, HEAD, trailing slashes, unknown routes, 500s (docs/contract.md §1, §2,
 * §8, §11).
 */

const NS = '/calendar/events/v1';
const PATTERNS = [
  NS,
  `${NS}/doc`,
  `${NS}/events`,
  `${NS}/events/(?P<id>\\d+)`,
  `${NS}/events/by-slug/(?P<slug>[^/]+)`,
  `${NS}/venues`,
  `${NS}/venues/(?P<id>\\d+)`,
  `${NS}/venues/by-slug/(?P<slug>[^/]+)`,
  `${NS}/organizers`,
  `${NS}/organizers/(?P<id>\\d+)`,
  `${NS}/organizers/by-slug/(?P<slug>[^/]+)`,
  `${NS}/categories`,
  `${NS}/categories/(?P<id>\\d+)`,
  `${NS}/tags`,
  `${NS}/tags/(?P<id>\\d+)`,
];

describeEachDb('REST routing', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };

  describe('GET /', () => {
    it('describes every route from the route table', async () => {
      const response = await rest.get('');
      expect(response.status).toBe(200);
      const { body } = response;
      expect(Object.keys(body)).toEqual(['namespace', 'routes', '_links']);
      expect(body.namespace).toBe('calendar/events/v1');
      expect(Object.keys(body.routes)).toEqual(PATTERNS);
      expect(body._links).toEqual({ up: [{ href: 'http://calendar.test/wp-json/' }] });
      const single = body.routes[`${NS}/events/(?P<id>\\d+)`];
      expect(single.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
      expect(single.endpoints.map((e: any) => e.methods)).toEqual([
        ['GET'],
        ['DELETE'],
        ['POST', 'PUT', 'PATCH'],
      ]);
      expect(single).not.toHaveProperty('_links');
      expect(single.endpoints[0].args.id).toMatchObject({ type: 'integer', required: true });
      const list = body.routes[`${NS}/events`];
      expect(list._links).toEqual({
        self: [{ href: 'http://calendar.test/wp-json/calendar/events/v1/events' }],
      });
      const [get, post] = list.endpoints;
      expect(get.args.page).toMatchObject({ type: 'integer', required: false, default: 1 });
      expect(get.args.categories).toMatchObject({ type: 'array', items: { type: 'string' } });
      expect(get.args.status).toMatchObject({
        items: { type: 'string', enum: expect.arrayContaining(['publish', 'draft']) },
      });
      expect(get.args).not.toHaveProperty('input');
      for (const name of ['title', 'start_date', 'end_date']) {
        expect(post.args[name]).toMatchObject({ type: 'string', required: true });
      }
      expect(post.args.description.required).toBe(false);
      expect(post.args.cost).not.toHaveProperty('type');
      expect(body.routes[`${NS}/doc`].endpoints[0].args).toEqual([]);
      const terms = body.routes[`${NS}/categories`].endpoints[0].args;
      expect(terms.order).toMatchObject({ type: 'string', enum: ['asc', 'desc'] });
    });

    it('answers 404 for an unknown namespace and 400 for a bad context', async () => {
      expectError(await rest.get('?namespace=nope/v1'), 404, 'rest_invalid_namespace');
      expectError(await rest.get('/?context=everything'), 400, 'rest_invalid_param', {
        context: expect.any(String),
      });
      expect((await rest.get('/?context=view')).status).toBe(200);
    });
  });

  it('GET /doc answers the OpenAPI 3 document generated from the table (rest-doc.test.ts)', async () => {
    const { status, body } = await rest.get('/doc');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(body.openapi).toBe('3.0.0');
    expect(body.servers).toEqual([{ url: 'http://calendar.test/wp-json/calendar/events/v1/' }]);
    expect(Object.keys(body.paths)).toHaveLength(14);
    expect(Object.keys(body.paths['/events/{id}'])).toEqual([
      'get',
      'delete',
      'post',
      'put',
      'patch',
    ]);
    expect(body.paths['/events/{id}'].get.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'integer' },
    });
    expect(body.paths['/events'].post.responses).toHaveProperty('201');
  });

  it('accepts a trailing slash on every route', async () => {
    const event = (
      await rest.post(
        '/events',
        { title: 'Slash', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00' },
        admin,
      )
    ).body;
    const venue = (await rest.post('/venues', { venue: 'Slash Hall' }, admin)).body;
    const organizer = (await rest.post('/organizers', { organizer: 'Slash Org' }, admin)).body;
    const category = (await rest.post('/categories/', { name: 'Slash' }, admin)).body;
    const tag = (await rest.post('/tags/', { name: 'slash' }, admin)).body;
    const paths = [
      '/',
      '/doc/',
      '/events/',
      `/events/${event.id}/`,
      `/events/by-slug/${event.slug}/`,
      '/venues/',
      `/venues/${venue.id}/`,
      `/venues/by-slug/${venue.slug}/`,
      '/organizers/',
      `/organizers/${organizer.id}/`,
      `/organizers/by-slug/${organizer.slug}/`,
      '/categories/',
      `/categories/${category.id}/`,
      '/tags/',
      `/tags/${tag.id}/`,
    ];
    for (const path of paths)
      expect({ path, status: (await rest.get(path)).status }).toEqual({ path, status: 200 });
    const patched = await rest.patch(`/tags/${tag.id}/`, { description: 'x' }, admin);
    expect(patched.status).toBe(200);
    await expectGraphqlAgrees(env, 'tag', patched.body);
  });

  it('answers 404 rest_no_route for unknown paths and methods', async () => {
    for (const [method, path] of [
      ['GET', '/nothing-here'],
      ['GET', '/events/by-slug/'],
      ['GET', '/venues/foo'],
      ['GET', '/categories/foo%20bar'],
      ['GET', '/categories/by-slug/x'],
      ['DELETE', '/events'],
      ['PUT', '/venues'],
      ['POST', '/doc'],
      ['DELETE', '/'],
      ['GET', '/events//1'],
    ]) {
      expectError(await rest.request(method!, path!, admin), 404, 'rest_no_route');
    }
  });

  it('answers HEAD like GET without a body, OPTIONS with the allowed methods', async () => {
    const event = (
      await rest.post(
        '/events',
        { title: 'Head', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00' },
        admin,
      )
    ).body;
    const head = await rest.head(`/events/${event.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect((await rest.head('/events/999999')).status).toBe(404);
    const options = await rest.request('OPTIONS', `/events/${event.id}`);
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, DELETE, POST, PUT, PATCH');
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('leaves paths outside the API root to the rest of the server', async () => {
    const response = await env.app.yoga.fetch('http://localhost/other/v1/events');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type') ?? '').not.toContain('application/json');
    // Under the API root, another namespace is WordPress's rest_no_route (issue 17).
    const other = await env.app.yoga.fetch('http://localhost/wp-json/other/v1/events');
    expect(other.status).toBe(404);
    expect((await other.json()).code).toBe('rest_no_route');
  });

  it('answers 500 rest_internal_error without stack or SQL, logging it with a request id', async () => {
    // A database that fails every query, the way a lost connection would.
    const { deps } = env.app;
    const db = deps.db;
    deps.db = Object.assign(
      () => {
        throw new Error('select * from `venues` exploded');
      },
      { transaction: db.transaction.bind(db), on: db.on.bind(db) },
    ) as unknown as typeof db;
    // The request's log lines come from a child of the app's logger: capture them.
    const written: string[] = [];
    const capture = createLogger('error', { write: (line: string) => written.push(line) });
    const logged = jest
      .spyOn(env.app.logger, 'child')
      .mockImplementation((bindings) => capture.child(bindings));
    try {
      const response = await rest.get('/venues', { headers: { 'x-request-id': 'req-500' } });
      expectError(response, 500, 'rest_internal_error');
      expect(response.text).not.toMatch(/select|venues|exploded|at /);
      expect(response.headers.get('x-request-id')).toBe('req-500');
      const lines = written.join('\n');
      expect(lines).toContain('exploded');
      expect(lines).toContain('"request_id":"req-500"');
    } finally {
      deps.db = db;
      logged.mockRestore();
    }
  });
});
