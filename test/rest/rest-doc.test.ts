import SwaggerParser from '@apidevtools/swagger-parser';
import { getNullableType, isListType } from 'graphql';
import { compileRoutes } from '../../src/rest/compile';
import { ROUTES, templatePath } from '../../src/rest/routes';
import { buildSchema } from '../../src/graphql/schema';
import { describeEachDb } from '../support/harness';
import { useImageServer } from '../support/image-server';
import { checkAgainst, responseSchemaOf } from '../support/openapi-check';
import { RestClient, type RestResponse } from '../support/rest/rest-client';

/** GET /doc (docs/contract.md §11): a valid OpenAPI 3 document generated from the route table. */

const PATHS = [
  '/doc',
  '/events',
  '/events/{id}',
  '/events/by-slug/{slug}',
  '/venues',
  '/venues/{id}',
  '/venues/by-slug/{slug}',
  '/organizers',
  '/organizers/{id}',
  '/organizers/by-slug/{slug}',
  '/categories',
  '/categories/{id}',
  '/tags',
  '/tags/{id}',
];

const EVENT_LIST_PARAMS = [
  'page',
  'per_page',
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'strict_dates',
  'search',
  'categories',
  'tags',
  'venue',
  'organizer',
  'featured',
  'status',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'geoloc_radius',
  'include',
  'post_parent',
  'ticketed',
];

describeEachDb('GET /doc', (env) => {
  const images = useImageServer();
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };
  let doc: any;

  beforeAll(async () => {
    const response = await rest.get('/doc');
    expect(response.status).toBe(200);
    doc = response.body;
  });

  it('validates as OpenAPI 3 (swagger-parser)', async () => {
    // validate() dereferences in place: give it a copy.
    const api = (await SwaggerParser.validate(structuredClone(doc))) as any;
    expect(api.openapi).toBe('3.0.0');
  });

  it('has the contract layout: info, the component schemas, the namespace server', () => {
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(Object.keys(doc.info)).toEqual(['version', 'title', 'description']);
    expect(Object.keys(doc.components.schemas)).toEqual([
      'ImageSize',
      'CostDetails',
      'Term',
      'Image',
      'DateDetails',
      'Event',
      'Venue',
      'Organizer',
      'Error',
    ]);
    expect(doc.servers).toEqual([{ url: 'http://calendar.test/wp-json/calendar/events/v1/' }]);
    // Derived from the GraphQL types, with the presenters' wire types.
    const event = doc.components.schemas.Event;
    expect(event.properties.author).toMatchObject({ type: 'string' });
    expect(event.properties.image.oneOf).toEqual([
      { $ref: '#/components/schemas/Image' },
      { type: 'boolean', enum: [false] },
    ]);
    expect(event.properties.venue.oneOf[0]).toEqual({ $ref: '#/components/schemas/Venue' });
    expect(event.properties.organizer).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Organizer' },
    });
    expect(event.properties.start_date_details).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/DateDetails' }],
    });
    expect(event.properties).not.toHaveProperty('post_parent'); // GraphQL-only
    expect(event.required).not.toContain('json_ld'); // single reads only
    expect(doc.components.schemas.Venue.required).toEqual([
      'id',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(doc.components.schemas.Error.required).toEqual(['code', 'message', 'data']);
  });

  it('lists the 14 paths in registration order, each method of the table', () => {
    expect(Object.keys(doc.paths)).toEqual(PATHS);
    expect(Object.keys(doc.paths['/events'])).toEqual(['get', 'post']);
    for (const path of ['/events/{id}', '/events/by-slug/{slug}', '/venues/{id}']) {
      expect(Object.keys(doc.paths[path])).toEqual(['get', 'delete', 'post', 'put', 'patch']);
    }
    expect(Object.keys(doc.paths['/tags/{id}'])).toEqual(['get', 'post', 'put', 'patch', 'delete']);
    expect(Object.keys(doc.paths['/doc'])).toEqual(['get']);
  });

  it('documents every parameter with its type, CSV arrays as form/explode=false', () => {
    const list = doc.paths['/events'].get.parameters;
    expect(list.map((p: any) => p.name)).toEqual(EVENT_LIST_PARAMS);
    for (const p of list) {
      expect(Object.keys(p).slice(0, 5)).toEqual([
        'name',
        'in',
        'description',
        'schema',
        'required',
      ]);
      expect(p.in).toBe('query');
      expect(p.description).not.toBe('');
    }
    const byName = Object.fromEntries(list.map((p: any) => [p.name, p]));
    expect(byName.page).toMatchObject({ schema: { type: 'integer', default: 1 }, required: false });
    expect(byName.per_page.schema).toEqual({ type: 'integer', default: 10 });
    expect(byName.categories).toMatchObject({
      schema: { type: 'array', items: { type: 'string' } },
      style: 'form',
      explode: false,
    });
    expect(byName.venue.schema).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(byName.status.schema.items.enum).toEqual(expect.arrayContaining(['publish', 'draft']));
    expect(byName.ticketed.schema).toEqual({ type: 'boolean' });
    expect(byName.search).not.toHaveProperty('style');
    const single = doc.paths['/events/{id}'];
    expect(single.get.parameters[0]).toEqual({
      name: 'id',
      in: 'path',
      description: 'Event id.',
      schema: { type: 'integer' },
      required: true,
    });
    expect(single.delete.parameters.map((p: any) => p.name)).toEqual(['id', 'force']);
    expect(doc.paths['/events/by-slug/{slug}'].get.parameters[0]).toMatchObject({
      name: 'slug',
      in: 'path',
      schema: { type: 'string' },
    });
  });

  it('documents write bodies as JSON and form, with the required fields of creates', () => {
    const create = doc.paths['/events'].post;
    expect(Object.keys(create.requestBody.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['title', 'start_date', 'end_date']);
    expect(body.properties.title).toMatchObject({ type: 'string' });
    expect(body.properties.venue.oneOf[0]).toMatchObject({ type: 'integer' });
    expect(body.properties.venue.oneOf[1].properties.venue).toMatchObject({ type: 'string' });
    expect(body.properties.organizer.items.oneOf).toHaveLength(2);
    const update = doc.paths['/events/{id}'].patch;
    expect(update.requestBody.content['application/json'].schema).not.toHaveProperty('required');
    expect(update.parameters.map((p: any) => p.name)).toEqual(['id']);
    expect(update.security).toEqual([{ bearerAuth: [] }, { applicationPassword: [] }]);
    // Reads are public; credentials, when sent, make the caller that user (issue 17, item 7).
    expect(doc.paths['/events'].get.security).toEqual([
      {},
      { bearerAuth: [] },
      { applicationPassword: [] },
    ]);
    expect(doc.paths['/events'].get).not.toHaveProperty('requestBody');
  });

  it('documents responses with the component schemas and the error envelope', () => {
    const paths = doc.paths;
    const statuses = (path: string, method: string) => Object.keys(paths[path][method].responses);
    expect(statuses('/events', 'get')).toEqual(['200', '400', '404']);
    expect(statuses('/events', 'post')).toEqual(['201', '400', '401', '403', '413']);
    expect(statuses('/events/{id}', 'get')).toEqual(['200', '400', '403', '404']);
    expect(statuses('/events/{id}', 'delete')).toEqual(['200', '400', '401', '403', '404', '410']);
    expect(statuses('/categories/{id}', 'get')).toEqual(['200', '400', '404']);
    expect(statuses('/categories/{id}', 'delete')).toEqual(['200', '400', '401', '403', '404']);
    expect(responseSchemaOf(doc, '/events/{id}', 'get', 200)).toEqual({
      $ref: '#/components/schemas/Event',
    });
    expect(responseSchemaOf(doc, '/tags/{id}', 'get', 200)).toEqual({
      $ref: '#/components/schemas/Term',
    });
    expect(responseSchemaOf(doc, '/events/{id}', 'delete', 410)).toEqual({
      $ref: '#/components/schemas/Error',
    });
    const list = paths['/events'].get.responses['200'];
    expect(Object.keys(list.headers)).toEqual([
      'X-TEC-Total',
      'X-TEC-TotalPages',
      'X-WP-Total',
      'X-WP-TotalPages',
      'Link',
    ]);
    expect(list.content['application/json'].schema.properties.events.items).toEqual({
      $ref: '#/components/schemas/Event',
    });
  });

  it('documents every parameter of every route of the table', () => {
    const schema = buildSchema();
    for (const route of compileRoutes(schema, ROUTES)) {
      if (route.row.path === '') continue;
      const path = doc.paths[templatePath(route.row.path)];
      for (const method of route.row.methods) {
        const operation = path[method.toLowerCase()];
        const names = new Set<string>((operation.parameters ?? []).map((p: any) => p.name));
        const body = operation.requestBody?.content['application/json'].schema.properties ?? {};
        for (const param of route.params) {
          const where = `${method} ${route.row.path} ${param.name}`;
          expect({ where, documented: names.has(param.name) || param.name in body }).toEqual({
            where,
            documented: true,
          });
          if (param.in === 'query' && isListType(getNullableType(param.type))) {
            const p = operation.parameters.find((x: any) => x.name === param.name);
            expect({ where, style: p.style, explode: p.explode }).toEqual({
              where,
              style: 'form',
              explode: false,
            });
          }
        }
      }
    }
  });

  it('is built once: every request answers the same document', async () => {
    const again = await rest.get('/doc/');
    expect(again.body).toEqual(doc);
    const head = await rest.head('/doc');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('describes the bodies the routes actually send (strictly: no undocumented key)', async () => {
    const checks: [string, string, RestResponse][] = [];
    const check = async (path: string, method: string, request: Promise<RestResponse>) => {
      const response = await request;
      checks.push([path, method, response]);
      return response.body;
    };
    const dates = { start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' };
    const music = await check(
      '/categories',
      'post',
      rest.post('/categories', { name: 'Music' }, admin),
    );
    const jazz = await check(
      '/categories',
      'post',
      rest.post('/categories', { name: 'Jazz', description: 'Swing', parent: music.id }, admin),
    );
    const tag = await check('/tags', 'post', rest.post('/tags', { name: 'late' }, admin));
    const venue = await check(
      '/venues',
      'post',
      rest.post(
        '/venues',
        {
          venue: 'Blue Hall',
          description: '<p>Big</p>',
          address: '1 Rue',
          city: 'Lyon',
          country: 'France',
          province: 'Rhône',
          zip: '69001',
          phone: '+33 1',
          website: 'https://blue.example',
          geo_lat: 45.76,
          geo_lng: 4.83,
        },
        admin,
      ),
    );
    const organizer = await check(
      '/organizers',
      'post',
      rest.post(
        '/organizers',
        {
          organizer: 'Ann',
          email: 'ann@example.com',
          phone: '+1 555',
          website: 'https://a.example',
        },
        admin,
      ),
    );
    const full = await check(
      '/events',
      'post',
      rest.post(
        '/events',
        {
          title: 'Full',
          ...dates,
          timezone: 'Europe/Paris',
          categories: [jazz.id],
          tags: [tag.id],
          venue: venue.id,
          organizer: [organizer.id, { organizer: 'Bob' }],
          cost: ['10', '20'],
          image: images.url('/poster.jpg'),
          website: 'https://full.example',
          featured: true,
        },
        admin,
      ),
    );
    const bare = await check(
      '/events',
      'post',
      rest.post('/events', { title: 'Bare', ...dates }, admin),
    );
    const secret = await check(
      '/events',
      'post',
      rest.post('/events', { title: 'Secret', ...dates, password: 'pw' }, admin),
    );
    await check('/events/{id}', 'get', rest.get(`/events/${full.id}`));
    await check('/events/{id}', 'get', rest.get(`/events/${bare.id}`));
    await check('/events/by-slug/{slug}', 'get', rest.get(`/events/by-slug/${full.slug}`));
    // Three events, two per page: a next link, then a previous one; the protected event redacted.
    await check('/events', 'get', rest.get('/events?per_page=2'));
    await check('/events', 'get', rest.get('/events?per_page=2&page=2'));
    await check('/venues', 'get', rest.get('/venues'));
    await check('/venues/{id}', 'get', rest.get(`/venues/${venue.id}`));
    await check('/venues/by-slug/{slug}', 'get', rest.get(`/venues/by-slug/${venue.slug}`));
    await check('/organizers', 'get', rest.get('/organizers'));
    await check('/organizers/{id}', 'get', rest.get(`/organizers/${organizer.id}`));
    await check('/categories', 'get', rest.get('/categories'));
    await check('/categories/{id}', 'get', rest.get(`/categories/${jazz.id}`));
    await check('/tags', 'get', rest.get('/tags?hide_empty=0'));
    await check('/tags/{id}', 'get', rest.get(`/tags/${tag.id}`));
    await check('/events/{id}', 'patch', rest.patch(`/events/${bare.id}`, { sticky: true }, admin));
    await check('/venues/{id}', 'put', rest.put(`/venues/${venue.id}`, { zip: '69002' }, admin));
    await check('/tags/{id}', 'delete', rest.delete(`/tags/${tag.id}`, admin));
    await check('/events/{id}', 'delete', rest.delete(`/events/${bare.id}`, admin));
    await check('/events/{id}', 'delete', rest.delete(`/events/${bare.id}`, admin)); // 410
    await check('/events/{id}', 'get', rest.get('/events/999999')); // 404
    await check('/events/{id}', 'get', rest.get(`/events/${secret.id}`)); // 403 password
    await check('/events', 'get', rest.get('/events?per_page=zero')); // 400
    await check('/events', 'get', rest.get('/events?page=9')); // 404
    await check('/events', 'post', rest.post('/events', { title: 'x' }, admin)); // 400 missing
    await check('/events', 'post', rest.post('/events', { title: 'x', ...dates })); // 401
    await check(
      '/events',
      'post',
      rest.post('/events', { title: 'x', ...dates }, { as: 'subscriber' }),
    );
    await check('/doc', 'get', rest.get('/doc'));

    const seen = new Set<string>();
    for (const [path, method, response] of checks) {
      const label = `${method.toUpperCase()} ${path} → ${response.status}`;
      seen.add(`${response.status}`);
      const schema = responseSchemaOf(doc, path, method, response.status);
      expect({ label, problems: checkAgainst(doc, schema, response.body) }).toEqual({
        label,
        problems: [],
      });
    }
    expect([...seen].sort()).toEqual(['200', '201', '400', '401', '403', '404', '410']);
  });
});
