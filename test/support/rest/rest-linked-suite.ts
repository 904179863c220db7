import { resetCalendar } from '../event-fixtures';
import type { TestEnv } from '../harness';
import { RestClient, expectError } from './rest-client';
import { ORGANIZER_KEYS, VENUE_KEYS, expectOrderedSubset, pathOf } from './rest-shapes';
import { expectGraphqlAgrees, graphqlRead } from './rest-twin';

/**
 * The REST suite venues and organizers share (their routes are symmetrical, docs/contract.md
 * §1–§8): list, create, read/update/delete by id and by slug. Each test file runs it for one
 * resource.
 */

export interface LinkedResource {
  kind: 'venue' | 'organizer';
  collection: 'venues' | 'organizers';
  /** A complete create body. */
  full: Record<string, unknown>;
  /** A field that stays empty in `full`, so its key is left out. */
  absent: string;
  /** Bodies with one bad value, and the parameter each must name. */
  invalid: [Record<string, unknown>, string][];
}

export function linkedPostSuite(env: TestEnv, r: LinkedResource): void {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };
  const base = `/${r.collection}`;
  const keys = r.kind === 'venue' ? VENUE_KEYS : ORGANIZER_KEYS;
  const named = (name: string, extra: Record<string, unknown> = {}) => ({
    [r.kind]: name,
    ...extra,
  });

  async function create(body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await rest.post(base, body, admin);
    expect(response.status).toBe(201);
    return response.body;
  }

  describe(`GET ${base}`, () => {
    beforeEach(() => resetCalendar(env));

    it('pages by name with totals headers and links that keep every filter', async () => {
      const made = [];
      for (const name of ['Alpha Hall', 'Beta Hall', 'Gamma Hall', 'Delta Room']) {
        made.push(await create(named(name)));
      }
      const first = await rest.get(`${base}?search=hall&status=publish&per_page=2`);
      expect(first.status).toBe(200);
      expect(Object.keys(first.body)).toEqual([
        r.collection,
        'rest_url',
        'next_rest_url',
        'total',
        'total_pages',
      ]);
      expect(first.body).toMatchObject({ total: 3, total_pages: 2 });
      expect(first.body[r.collection].map((v: any) => v[r.kind])).toEqual([
        'Alpha Hall',
        'Beta Hall',
      ]);
      for (const h of ['X-TEC-Total', 'X-WP-Total']) expect(first.headers.get(h)).toBe('3');
      for (const h of ['X-TEC-TotalPages', 'X-WP-TotalPages'])
        expect(first.headers.get(h)).toBe('2');
      expect(Object.fromEntries(new URL(first.body.next_rest_url).searchParams)).toEqual({
        page: '2',
        per_page: '2',
        search: 'hall',
        status: 'publish',
      });
      const second = await rest.get(pathOf(first.body.next_rest_url));
      expect(second.body[r.collection].map((v: any) => v[r.kind])).toEqual(['Gamma Hall']);
      expect(second.body).not.toHaveProperty('next_rest_url');
      expect(pathOf(second.body.previous_rest_url)).toBe(
        `${base}/?per_page=2&search=hall&status=publish`,
      );
      const gql = await env.ok(
        `{ ${r.collection}(search: "hall", per_page: 10) { total ${r.collection} { id } } }`,
      );
      expect(gql[r.collection][r.collection].map((v: any) => v.id)).toEqual(
        made.slice(0, 3).map((v) => v.id),
      );
    });

    it('leaves empty keys out of listed records and answers 404 past the last page', async () => {
      await create(named('Bare'));
      const { body } = await rest.get(base);
      const [record] = body[r.collection];
      expectOrderedSubset(record, keys);
      expect(record).not.toHaveProperty(r.absent);
      expect(record).not.toHaveProperty('json_ld');
      expect(record).not.toHaveProperty('image');
      expectError(await rest.get(`${base}?page=3`), 404, `${r.kind}-archive-page-not-found`);
    });

    it.each([
      ['per_page=0', 'per_page'],
      ['page=x', 'page'],
      ['has_events=perhaps', 'has_events'],
      ['event=999999', 'event'],
      ['status=nope', 'status'],
      ['search=', 'search'],
    ])('answers 400 rest_invalid_param for %s', async (query, name) => {
      const response = await rest.get(`${base}?${query}`);
      expectError(response, 400, 'rest_invalid_param');
      expect(Object.keys(response.body.data.params)).toContain(name);
    });
  });

  describe(`POST ${base}`, () => {
    it('creates (201) in the contract shape; GraphQL agrees', async () => {
      const made = await create(r.full);
      expectOrderedSubset(made, keys);
      expect(made).not.toHaveProperty(r.absent);
      expect(made).toMatchObject(r.full);
      await expectGraphqlAgrees(env, r.kind, made);
    });

    it('answers 400 rest_missing_callback_param without a name', async () => {
      expectError(
        await rest.post(base, { description: 'x' }, admin),
        400,
        'rest_missing_callback_param',
        [r.kind],
      );
    });

    it('answers 400 rest_invalid_param naming each bad value', async () => {
      for (const [body, name] of r.invalid) {
        const response = await rest.post(base, named('Invalid', body), admin);
        expectError(response, 400, 'rest_invalid_param');
        expect(Object.keys(response.body.data.params)).toContain(name);
      }
    });

    // Needs the auth layer.
    it('answers 401 rest_forbidden to an anonymous create', async () => {
      expectError(await rest.post(base, named('Nope')), 401, 'rest_forbidden');
    });
  });

  describe(`${base}/<id> and ${base}/by-slug/<slug>`, () => {
    it('reads by id and by slug with json_ld', async () => {
      const made = await create(named(`Readable ${r.kind}`));
      for (const path of [`${base}/${made.id}`, `${base}/by-slug/${made.slug}`]) {
        const response = await rest.get(path);
        expect(response.status).toBe(200);
        expectOrderedSubset(response.body, keys);
        expect(response.body.json_ld).toMatchObject({
          '@type': r.kind === 'venue' ? 'Place' : 'Person',
        });
        expect({ ...response.body, json_ld: undefined }).toEqual({ ...made, json_ld: undefined });
      }
    });

    it('answers 404 rest-<resource>-not-found for unknown ids and slugs', async () => {
      const code = `rest-${r.kind}-not-found`;
      expectError(await rest.get(`${base}/999999`), 404, code);
      expectError(await rest.get(`${base}/by-slug/no-such-thing`), 404, code);
      expectError(await rest.patch(`${base}/999999`, named('x'), admin), 404, code);
      expectError(await rest.put(`${base}/by-slug/no-such-thing`, named('x'), admin), 404, code);
      expectError(await rest.delete(`${base}/999999`, admin), 404, code);
      expectError(await rest.delete(`${base}/by-slug/no-such-thing`, admin), 404, code);
      expectError(await rest.get(`${base}/foo/bar`), 404, 'rest_no_route');
    });

    it.each(['POST', 'PUT', 'PATCH'])(
      '%s updates by id and by slug (200); GraphQL agrees',
      async (method) => {
        const made = await create(named(`Updatable ${method}`, { phone: '555-0000' }));
        const byId = await rest.request(method, `${base}/${made.id}`, {
          ...admin,
          json: { description: 'Renovated', phone: '' },
        });
        expect(byId.status).toBe(200);
        // Rendered on output (docs/contract.md §4).
        expect(byId.body).toMatchObject({ id: made.id, description: '<p>Renovated</p>' });
        expect(byId.body).not.toHaveProperty('phone'); // "" cleared it
        await expectGraphqlAgrees(env, r.kind, byId.body);
        const slug = `moved-${r.kind}-${method.toLowerCase()}`;
        const bySlug = await rest.request(method, `${base}/by-slug/${made.slug}`, {
          ...admin,
          json: { slug },
        });
        expect(bySlug.status).toBe(200);
        expect(bySlug.body).toMatchObject({ id: made.id, slug, description: '<p>Renovated</p>' });
        await expectGraphqlAgrees(env, r.kind, bySlug.body);
      },
    );

    it('answers 400 for bad update values', async () => {
      const made = await create(named('Strict'));
      for (const [body, name] of r.invalid) {
        for (const path of [`${base}/${made.id}`, `${base}/by-slug/${made.slug}`]) {
          const response = await rest.put(path, body, admin);
          expectError(response, 400, 'rest_invalid_param');
          expect(Object.keys(response.body.data.params)).toContain(name);
        }
      }
    });

    it('DELETE trashes by id (200, then 410) and by slug; force deletes for good', async () => {
      const made = await create(named(`Doomed ${r.kind}`));
      const trashed = await rest.delete(`${base}/${made.id}`, admin);
      expect(trashed.status).toBe(200);
      expect(trashed.body).toMatchObject({ id: made.id, status: 'trash' });
      // GraphQL twin: a trashed record is no longer readable, not even by an administrator.
      expect(await graphqlRead(env, r.kind, made.id)).toMatchObject({
        restCode: `${r.kind}-not-accessible`,
      });
      expectError(await rest.delete(`${base}/${made.id}`, admin), 410, `${r.kind}-is-in-trash`);
      const other = await create(named(`Doomed by slug ${r.kind}`));
      const bySlug = await rest.delete(`${base}/by-slug/${other.slug}?force=1`, admin);
      expect(bySlug.body).toMatchObject({ id: other.id });
      expect(await graphqlRead(env, r.kind, other.id)).toMatchObject({
        restCode: `rest-${r.kind}-not-found`,
      });
      const badForce = await rest.delete(`${base}/${made.id}?force=sure`, admin);
      expectError(badForce, 400, 'rest_invalid_param');
    });

    // Needs the auth layer.
    it('answers 401 rest_forbidden to anonymous updates and deletes', async () => {
      const made = await create(named(`Guarded ${r.kind}`));
      expectError(await rest.patch(`${base}/${made.id}`, named('x')), 401, 'rest_forbidden');
      expectError(
        await rest.put(`${base}/by-slug/${made.slug}`, named('x')),
        401,
        'rest_forbidden',
      );
      expectError(await rest.delete(`${base}/${made.id}`), 401, 'rest_forbidden');
      expectError(await rest.delete(`${base}/by-slug/${made.slug}`), 401, 'rest_forbidden');
      expect((await graphqlRead(env, r.kind, made.id)).record?.status).toBe('publish');
    });
  });
}
