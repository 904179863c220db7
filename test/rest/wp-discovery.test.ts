import { ROUTES } from '../../src/rest/routes';
import { describeEachDb, type TestEnv } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * WordPress discovery (docs/contract.md §11): `GET {api_root}/` is the site's REST index —
 * name, URLs, namespaces (aliases included), routes of every namespace keyed by path as each
 * namespace's own index describes them — and any other unknown path under the API root answers
 * WordPress's `rest_no_route` JSON.
 */

const SITE = 'http://calendar.test';
const NS = 'calendar/events/v1';
const ALIAS = 'tribe/events/v1';
const NO_ROUTE = {
  code: 'rest_no_route',
  message: 'No route was found matching the URL and request method.',
  data: { status: 404 },
};

async function call(env: TestEnv, path: string, method = 'GET') {
  const response = await env.app.yoga.fetch(`http://localhost${path}`, { method });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text && JSON.parse(text),
  };
}

describeEachDb(
  'WordPress discovery',
  (env) => {
    const rest = new RestClient(env);

    it('answers GET /wp-json/ with the REST index WordPress clients expect', async () => {
      const { status, headers, body } = await call(env, '/wp-json/');
      expect(status).toBe(200);
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      expect(body).toMatchObject({
        name: 'calendar.test',
        url: SITE,
        home: SITE,
        namespaces: [NS, ALIAS],
        authentication: {},
      });
      expect(typeof body.description).toBe('string');
      expect(body.routes['/']).toMatchObject({ namespace: '', methods: ['GET'] });
      expect((await call(env, '/wp-json')).body).toEqual(body);
      const head = await call(env, '/wp-json/', 'HEAD');
      expect({ status: head.status, text: head.text }).toEqual({ status: 200, text: '' });
      const etag = headers.get('etag')!;
      const again = await env.app.yoga.fetch(`http://localhost/wp-json/`, {
        headers: { 'If-None-Match': etag },
      });
      expect(again.status).toBe(304);
    });

    it('lists every route of the table under each namespace, as the namespace index does', async () => {
      const { body } = await call(env, '/wp-json/');
      for (const namespace of [NS, ALIAS]) {
        const own = (await rest.get('', { namespace })).body.routes;
        for (const row of ROUTES) {
          const key = `/${namespace}${row.path}`;
          expect(Object.keys(body.routes)).toContain(key);
          expect(body.routes[key]).toEqual(own[key]);
          expect(body.routes[key].namespace).toBe(namespace);
          for (const method of row.methods) expect(body.routes[key].methods).toContain(method);
        }
      }
      const single = body.routes[`/${NS}/events/(?P<id>\\d+)`];
      expect(single.endpoints.map((e: any) => e.methods)).toEqual([
        ['GET'],
        ['DELETE'],
        ['POST', 'PUT', 'PATCH'],
      ]);
      expect(body.routes[`/${NS}/events`].endpoints[0].args.per_page.default).toBe(10);
    });

    it('answers rest_no_route JSON for unknown routes under the API root', async () => {
      for (const [path, method] of [
        ['/wp-json/nope/v9/x', 'GET'],
        ['/wp-json/nope', 'POST'],
        ['/wp-json/', 'POST'],
        [`/wp-json/${NS}/nope`, 'GET'],
        [`/wp-json/${NS}/events`, 'DELETE'],
        [`/wp-json/${ALIAS}/events/1/nope`, 'GET'],
      ]) {
        const response = await call(env, path!, method);
        expect({ path, method, status: response.status, body: response.body }).toEqual({
          path,
          method,
          status: 404,
          body: NO_ROUTE,
        });
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      }
    });

    it('leaves paths outside the API root alone; the SOFA view answers rest_no_route too', async () => {
      expect((await call(env, '/wp-jsonx')).status).toBe(404);
      expect((await call(env, '/wp-jsonx')).text).toBe('');
      const sofa = await call(env, '/wp-json/calendar/rest/events');
      expect(sofa.status).toBe(200);
      expect(sofa.body.code).toBeUndefined();
      const unknown = await call(env, '/wp-json/calendar/rest/nope/x');
      expect({ status: unknown.status, body: unknown.body }).toEqual({
        status: 404,
        body: NO_ROUTE,
      });
    });
  },
  { NAMESPACE_ALIASES: ALIAS },
);
