import { resetCalendar } from '../event-fixtures';
import type { TestEnv } from '../harness';
import { RestClient, expectError } from './rest-client';
import { CATEGORY_KEYS, TAG_KEYS, pathOf } from './rest-shapes';
import { expectGraphqlAgrees, graphqlRead } from './rest-twin';

/**
 * The REST suite categories and tags share (docs/contract.md §1–§8, §6 categories and tags): list,
 * create, and read/update/delete by id. Each test file runs it for one taxonomy.
 */

export interface TermResource {
  kind: 'category' | 'tag';
  collection: 'categories' | 'tags';
}

export function termSuite(env: TestEnv, t: TermResource): void {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };
  const base = `/${t.collection}`;
  const keys = t.kind === 'category' ? CATEGORY_KEYS : TAG_KEYS;

  async function create(body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await rest.post(base, body, admin);
    expect(response.status).toBe(201);
    return response.body;
  }

  describe(`GET ${base}`, () => {
    beforeEach(() => resetCalendar(env));

    it('hides unused terms by default, and pages with links that keep every filter', async () => {
      for (const name of ['Blues Rock', 'Jazz', 'Folk', 'Rock']) await create({ name });
      const hidden = await rest.get(base);
      expect(hidden.body).toEqual({
        rest_url: expect.stringMatching(new RegExp(`${base}/\\?page=1&per_page=10$`)),
        total: 0,
        total_pages: 0,
        [t.collection]: [],
      });

      const first = await rest.get(
        `${base}?hide_empty=0&per_page=2&orderby=NAME&order=Desc&search=o`,
      );
      expect(first.status).toBe(200);
      expect(Object.keys(first.body)).toEqual([
        'rest_url',
        'total',
        'total_pages',
        t.collection,
        'next_rest_url',
      ]);
      expect(first.body).toMatchObject({ total: 3, total_pages: 2 });
      expect(first.body[t.collection].map((x: any) => x.name)).toEqual(['Rock', 'Folk']);
      expect(Object.keys(first.body[t.collection][0])).toEqual(keys);
      for (const h of ['X-TEC-Total', 'X-WP-Total']) expect(first.headers.get(h)).toBe('3');
      for (const h of ['X-TEC-TotalPages', 'X-WP-TotalPages'])
        expect(first.headers.get(h)).toBe('2');
      expect(Object.fromEntries(new URL(first.body.next_rest_url).searchParams)).toEqual({
        page: '2',
        per_page: '2',
        search: 'o',
        order: 'desc',
        orderby: 'name',
        hide_empty: 'false',
      });
      const second = await rest.get(pathOf(first.body.next_rest_url));
      expect(Object.keys(second.body)).toEqual([
        'rest_url',
        'total',
        'total_pages',
        t.collection,
        'previous_rest_url',
      ]);
      expect(second.body[t.collection].map((x: any) => x.name)).toEqual(['Blues Rock']);
      const gql = await env.ok(
        `{ ${t.collection}(hide_empty: false, search: "o", orderby: name, order: desc) {
          ${t.collection} { name } } }`,
      );
      expect(gql[t.collection][t.collection].map((x: any) => x.name)).toEqual([
        'Rock',
        'Folk',
        'Blues Rock',
      ]);
      expectError(
        await rest.get(`${base}?hide_empty=0&page=5`),
        404,
        `${t.kind}-archive-page-not-found`,
      );
    });

    it.each([
      ['per_page=0', 'per_page'],
      ['order=sideways', 'order'],
      ['orderby=colour', 'orderby'],
      ['hide_empty=maybe', 'hide_empty'],
      ['include=999999', 'include'],
      ['exclude=abc', 'exclude'],
      ['post=abc', 'post'],
      ['event=999999', 'event'],
      ['search=', 'search'],
    ])('answers 400 rest_invalid_param for %s', async (query, name) => {
      const response = await rest.get(`${base}?${query}`);
      expectError(response, 400, 'rest_invalid_param');
      expect(Object.keys(response.body.data.params)).toContain(name);
    });
  });

  describe(`POST ${base}`, () => {
    it('creates (201) in the contract shape; GraphQL agrees', async () => {
      const made = await create({ name: `Concerts ${t.kind}`, description: 'Live music' });
      expect(Object.keys(made)).toEqual(keys);
      expect(made).toMatchObject({ count: 0, description: 'Live music', meta: [] });
      expect(made.urls).toEqual({
        self: `http://calendar.test/wp-json/calendar/events/v1/${t.collection}/${made.id}`,
        collection: `http://calendar.test/wp-json/calendar/events/v1/${t.collection}`,
      });
      await expectGraphqlAgrees(env, t.kind, made);
    });

    it('answers 400 for a missing name or a bad value', async () => {
      expectError(
        await rest.post(base, { description: 'x' }, admin),
        400,
        'rest_missing_callback_param',
        ['name'],
      );
      const bad = await rest.post(base, { name: 'Bad', description: ['x'] }, admin);
      expectError(bad, 400, 'rest_invalid_param');
      expect(Object.keys(bad.body.data.params)).toEqual(['description']);
    });

    // Needs the auth layer.
    it('answers 401 rest_forbidden to an anonymous create', async () => {
      expectError(await rest.post(base, { name: 'Nope' }), 401, 'rest_forbidden');
    });
  });

  describe(`${base}/<id>`, () => {
    it('reads one term (200) and answers 404 for unknown ids', async () => {
      const made = await create({ name: `Readable ${t.kind}` });
      const response = await rest.get(`${base}/${made.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(made);
      expectError(await rest.get(`${base}/999999`), 404, `rest-${t.kind}-not-found`);
      expectError(await rest.get(`${base}/by-slug/x`), 404, 'rest_no_route');
    });

    it.each(['POST', 'PUT', 'PATCH'])(
      '%s updates the fields sent (200); GraphQL agrees',
      async (method) => {
        const made = await create({ name: `Updatable ${method}`, description: 'Old' });
        const response = await rest.request(method, `${base}/${made.id}`, {
          ...admin,
          json: { slug: `updated-${method.toLowerCase()}` },
        });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          id: made.id,
          name: made.name,
          description: 'Old',
          slug: `updated-${method.toLowerCase()}`,
        });
        await expectGraphqlAgrees(env, t.kind, response.body);
        expectError(
          await rest.request(method, `${base}/999999`, { ...admin, json: { name: 'x' } }),
          404,
          `rest-${t.kind}-not-found`,
        );
        const bad = await rest.request(method, `${base}/${made.id}`, {
          ...admin,
          json: { name: '' },
        });
        expectError(bad, 400, 'rest_invalid_param');
      },
    );

    it('DELETE deletes for good (200, the term as it was), then 404', async () => {
      const made = await create({ name: `Doomed ${t.kind}` });
      const response = await rest.delete(`${base}/${made.id}`, admin);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(made);
      expect(await graphqlRead(env, t.kind, made.id)).toMatchObject({
        restCode: `rest-${t.kind}-not-found`,
      });
      expectError(await rest.delete(`${base}/${made.id}`, admin), 404, `rest-${t.kind}-not-found`);
      expectError(await rest.delete(`${base}/99999999999`, admin), 404, `rest-${t.kind}-not-found`);
    });

    // Needs the auth layer.
    it('answers 401 rest_forbidden to anonymous updates and deletes', async () => {
      const made = await create({ name: `Guarded ${t.kind}` });
      expectError(await rest.put(`${base}/${made.id}`, { name: 'x' }), 401, 'rest_forbidden');
      expectError(await rest.delete(`${base}/${made.id}`), 401, 'rest_forbidden');
      expect((await graphqlRead(env, t.kind, made.id)).record?.name).toBe(made.name);
    });
  });
}
