import { compileRoutes } from '../../src/rest/compile';
import { argsDoc } from '../../src/rest/openapi/describe';
import { ROUTES } from '../../src/rest/routes';
import { buildSchema } from '../../src/graphql/schema';
import { describeEachDb } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { loadSample } from '../support/rest/rest-samples';

/** GET / (docs/contract.md §11): every route of the table with its methods and parameters. */

const NS = 'calendar/events/v1';

/**
 * Parameters we take beyond the reference's (each an [ours] line of docs/contract.md): the geo
 * radius (§6), event passwords (§9), series parents, `force` deletes (§7) and the post fields
 * the reference's args omit but its writes accept (excerpt, slug, coordinates).
 */
const OURS = new Set([
  'geoloc_radius',
  'password',
  'post_parent',
  'force',
  'excerpt',
  'slug',
  'geo_lat',
  'geo_lng',
]);

type Endpoint = { methods: string[]; args: Record<string, any> | [] };
const argNames = (e: Endpoint) => (Array.isArray(e.args) ? [] : Object.keys(e.args));

describeEachDb('GET /', (env) => {
  const rest = new RestClient(env);
  let index: any;

  beforeAll(async () => {
    const response = await rest.get('');
    expect(response.status).toBe(200);
    index = response.body;
  });

  it('describes every route of the table, with each endpoint and its args', () => {
    const routes = compileRoutes(buildSchema(), ROUTES);
    const patterns = [...new Set(routes.map((r) => `/${NS}${r.row.path}`))];
    expect(Object.keys(index.routes)).toEqual(patterns);
    for (const route of routes) {
      const described = index.routes[`/${NS}${route.row.path}`];
      expect(described.namespace).toBe(NS);
      const endpoint = described.endpoints.find(
        (e: Endpoint) => e.methods.join() === route.row.methods.join(),
      );
      const args = argsDoc(route);
      expect(endpoint.args).toEqual(Object.keys(args).length ? args : []);
      for (const [name, arg] of Object.entries<any>(endpoint.args)) {
        expect({ name, keys: Object.keys(arg) }).toEqual({
          name,
          keys: expect.arrayContaining(['description', 'required']),
        });
        expect(typeof arg.required).toBe('boolean');
      }
    }
    const list = index.routes[`/${NS}/events`].endpoints[0].args;
    expect(list.per_page).toEqual({
      type: 'integer',
      description: 'Events per page, default 10, capped at 50.',
      required: false,
      default: 10,
    });
    expect(list.status).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(index.routes[`/${NS}/events/(?P<id>\\d+)`].endpoints[2].args.title.required).toBe(false);
  });

  it('has the reference shape: same routes, methods, links; its args and a few of ours', () => {
    const reference = loadSample('root').body as any;
    expect(Object.keys(index)).toEqual(Object.keys(reference));
    expect(index._links).toEqual({ up: [{ href: 'http://calendar.test/wp-json/' }] });
    expect(Object.keys(index.routes)).toEqual(Object.keys(reference.routes));
    for (const [pattern, theirs] of Object.entries<any>(reference.routes)) {
      const ours = index.routes[pattern];
      expect({ pattern, methods: ours.methods }).toEqual({ pattern, methods: theirs.methods });
      expect(ours.endpoints.map((e: Endpoint) => e.methods)).toEqual(
        theirs.endpoints.map((e: Endpoint) => e.methods),
      );
      expect(Object.keys(ours._links ?? {})).toEqual(Object.keys(theirs._links ?? {}));
      theirs.endpoints.forEach((endpoint: Endpoint, i: number) => {
        const mine = argNames(ours.endpoints[i]);
        const where = `${pattern} ${endpoint.methods.join()}`;
        expect({ where, missing: argNames(endpoint).filter((n) => !mine.includes(n)) }).toEqual({
          where,
          missing: [],
        });
        const extra = mine.filter((n) => !argNames(endpoint).includes(n) && !OURS.has(n));
        expect({ where, extra }).toEqual({ where, extra: [] });
      });
    }
    const self = index.routes[`/${NS}/venues`]._links.self[0].href;
    expect(self).toBe('http://calendar.test/wp-json/calendar/events/v1/venues');
  });

  it('takes namespace and context (default view)', async () => {
    const root = index.routes[`/${NS}`].endpoints[0].args;
    expect(root.namespace).toMatchObject({ default: NS, required: false });
    expect(root.context).toMatchObject({ default: 'view', enum: ['view', 'embed', 'edit'] });
    expect((await rest.get(`/?namespace=${encodeURIComponent(NS)}&context=embed`)).body).toEqual(
      index,
    );
    expectError(await rest.get('/?namespace=tribe/events/v1'), 404, 'rest_invalid_namespace');
    expectError(await rest.get('/?context=all'), 400, 'rest_invalid_param');
  });
});
