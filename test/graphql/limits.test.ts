import { once } from 'node:events';
import http, { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getIntrospectionQuery, validate } from 'graphql';
import { loadConfig, type Config } from '../../src/config/config';
import { documentRules, graphqlLimits } from '../../src/graphql/limits';
import { answerClientErrors, serverOptions } from '../../src/http/server-options';
import { compileRoutes } from '../../src/rest/compile';
import { ROUTES } from '../../src/rest/routes';
import { buildSchema } from '../../src/graphql/schema';
import { createApp, type App } from '../../src/http/server';
import { ANONYMOUS } from '../../src/users/viewer';
import { describeEachDb, type TestEnv } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';

/**
 * The limits of docs/security.md "Request limits": body size, per_page, list length, GraphQL depth,
 * cost, aliases and tokens, request timeout, URL and header length. Every refusal is the
 * contract's envelope on REST (a GraphQL error on /graphql) and changes nothing.
 */

const NESTED =
  '{ events { events { venue { events { events { venue { events { events { id } } } } } } } } }';

async function graphql(app: App, body: unknown, headers: Record<string, string> = {}) {
  const response = await app.yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Another app on the same database with some settings changed. */
async function appWith(env: TestEnv, changes: Partial<Config>, slowAuth = 0): Promise<App> {
  return createApp({
    config: { ...env.config, ...changes },
    db: env.db,
    now: () => env.now,
    ...(slowAuth
      ? {
          authenticate: async () => {
            await new Promise((resolve) => setTimeout(resolve, slowAuth));
            return ANONYMOUS;
          },
        }
      : {}),
  });
}

describeEachDb(
  'limits',
  (env) => {
    const rest = new RestClient(env);
    const admin = { as: 'administrator' as const };

    describe('request body size (MAX_BODY_BYTES)', () => {
      it('answers 413 rest_request_too_large on REST, declared or streamed, and writes nothing', async () => {
        const before = await env.snapshot();
        const big = await rest.post('/venues', { venue: 'x'.repeat(5000) }, admin);
        expectError(big, 413, 'rest_request_too_large');
        expect(big.body.message).toContain('4096');
        // No Content-Length: the body is counted while it streams in.
        const chunks = [new TextEncoder().encode(`{"venue":"${'y'.repeat(6000)}"}`)];
        const streamed = await env.app.yoga.fetch(rest.url('/venues'), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(await env.authHeaders('administrator')),
          },
          body: new ReadableStream({
            pull(controller) {
              const chunk = chunks.shift();
              if (chunk) controller.enqueue(chunk);
              else controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit);
        expect(streamed.status).toBe(413);
        expect((await streamed.json()).code).toBe('rest_request_too_large');
        expect(await env.snapshot()).toBe(before);
      });

      it('answers 413 on GraphQL too', async () => {
        const query = `mutation { create_venue(input: {venue: "${'z'.repeat(5000)}"}) { id } }`;
        const response = await graphql(env.app, { query }, await env.authHeaders('administrator'));
        expect(response.status).toBe(413);
        expect(response.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
      });
    });

    it('caps per_page silently at PER_PAGE_MAX', async () => {
      const response = await rest.get('/events?per_page=100000');
      expect(response.status).toBe(200);
      expect(response.body.rest_url).toContain('per_page=50');
    });

    describe('list length (MAX_ARRAY_LENGTH)', () => {
      it('answers 400 rest_invalid_param naming the REST parameter, in any list syntax', async () => {
        const csv = await rest.get('/events?include=1,2,3,4,5,6');
        expectError(csv, 400, 'rest_invalid_param');
        expect(csv.body.data.params).toEqual({
          include: 'include has 6 items; at most 5 are allowed.',
        });
        const brackets = await rest.get(
          `/venues?${[1, 2, 3, 4, 5, 6].map((i) => `event[]=${i}`).join('&')}`,
        );
        expect(brackets.status).toBe(400);
        const before = await env.snapshot();
        const body = await rest.post(
          '/events',
          {
            title: 'Too many tags',
            start_date: '2027-01-01 10:00:00',
            end_date: '2027-01-01 11:00:00',
            tags: ['a', 'b', 'c', 'd', 'e', 'f'],
          },
          admin,
        );
        expectError(body, 400, 'rest_invalid_param');
        expect(Object.keys(body.body.data.params)).toEqual(['tags']);
        const organizers = await rest.post(
          '/events',
          { title: 'x', organizer: '1,2,3,4,5,6,7' },
          admin,
        );
        expectError(organizers, 400, 'rest_invalid_param');
        expect(await env.snapshot()).toBe(before);
        expect((await rest.get('/events?include=1,2,3,4,5')).status).toBe(200);
      });

      it('answers BAD_USER_INPUT on GraphQL, in variables (JSON values too) and literals', async () => {
        const variables = await graphql(env.app, {
          query: 'query($ids: [Int!]) { events(include: $ids) { total } }',
          variables: { ids: [1, 2, 3, 4, 5, 6] },
        });
        expect(variables.body.errors[0].extensions).toMatchObject({
          code: 'BAD_USER_INPUT',
          params: { ids: 'ids has 6 items; at most 5 are allowed.' },
        });
        const json = await graphql(
          env.app,
          {
            query: 'mutation($input: EventInput!) { create_event(input: $input) { id } }',
            variables: { input: { title: 'x', cost: [1, 2, 3, 4, 5, 6, 7] } },
          },
          await env.authHeaders('administrator'),
        );
        expect(json.body.errors[0].extensions.params).toHaveProperty('cost');
        const literal = await graphql(env.app, {
          query: '{ events(include: [1, 2, 3, 4, 5, 6]) { total } }',
        });
        expect(literal.status).toBe(400);
        expect(literal.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      });
    });

    describe('GraphQL documents', () => {
      it('rejects events { venue { events { venue … } } } past GRAPHQL_MAX_DEPTH with a clear error', async () => {
        const response = await graphql(env.app, { query: NESTED });
        expect(response.status).toBe(400);
        expect(response.body.data).toBeUndefined();
        const [error] = response.body.errors;
        expect(error.extensions).toMatchObject({ code: 'QUERY_TOO_DEEP', limit: 7, found: 9 });
        expect(error.message).toMatch(/nested 9 levels deep; the limit is 7/);
        const shallow = await graphql(env.app, {
          query: '{ events { events { venue { events { total } } } } }',
        });
        expect(shallow.status).toBe(200);
        expect(shallow.body.errors).toBeUndefined();
      });

      it('counts a connection as one level: its edges { node } plumbing is not nesting', async () => {
        const lists = '{ events { events { venue { events { events { venue { id } } } } } } }';
        const connections = `{ venues_connection(first: 2) { edges { node {
          events_connection(first: 2) { edges { node { organizers_connection(first: 2) {
            edges { node { events_connection(first: 2) { page_info { has_next_page }
              edges { cursor node { venue { events_connection(first: 2) {
                edges { node { id } } } } } } } } } } } } } } } } }`;
        // Seven levels of records (a list's wrapper is one, a connection's edges { node } none):
        // at the limit, accepted.
        for (const query of [lists, connections]) {
          const response = await graphql(env.app, { query });
          expect(response.body.errors).toBeUndefined();
          expect(response.status).toBe(200);
        }
        // One more level of records is refused, whether it is a list or a connection.
        const deeper = connections.replace('node { id }', 'node { venue { id } }');
        const refused = await graphql(env.app, { query: deeper });
        expect(refused.status).toBe(400);
        expect(refused.body.errors[0].extensions).toMatchObject({
          code: 'QUERY_TOO_DEEP',
          limit: 7,
          found: 8,
        });
        // Fragments count where they are spread, not as a level of their own.
        const spread = await graphql(env.app, {
          query: `{ ...Deep } fragment Deep on Query { ${NESTED.slice(1, -1)} }`,
        });
        expect(spread.body.errors[0].extensions).toMatchObject({ found: 9 });
      });

      it('rejects queries above GRAPHQL_COST_ANONYMOUS, with too many aliases or tokens', async () => {
        const costly = await appWith(env, { graphqlCostAnonymous: 20 });
        const cost = await graphql(costly, {
          query:
            '{ events { events { id title venue { id venue city } organizer { id organizer } } } }',
        });
        expect(cost.status).toBe(400);
        expect(cost.body.errors[0].extensions).toMatchObject({
          code: 'COST_LIMIT_EXCEEDED',
          limit: 20,
        });
        const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: events { total }`).join(' ');
        const aliased = await graphql(env.app, { query: `{ ${aliases} }` });
        expect(aliased.status).toBe(400);
        expect(aliased.body.errors[0].extensions).toMatchObject({
          code: 'TOO_MANY_ALIASES',
          limit: 15,
        });
        const tokens = `{ events { ${'id '.repeat(6000)} } }`;
        const roomy = await appWith(env, { maxBodyBytes: 1 << 20 });
        const tokened = await graphql(roomy, { query: tokens });
        expect(tokened.status).toBe(400);
        expect(tokened.body.errors[0].message).toMatch(/Token limit of 5000 exceeded/);
      });

      it('lets the introspection query (GraphiQL, code generators) through', async () => {
        const response = await graphql(env.app, { query: getIntrospectionQuery() });
        expect(response.status).toBe(200);
        expect(response.body.errors).toBeUndefined();
        expect(response.body.data.__schema.queryType.name).toBe('Query');
      });

      it('lets every REST operation pass the document limits', () => {
        const schema = buildSchema();
        const rules = documentRules(graphqlLimits(loadConfig({})));
        const documents = compileRoutes(schema, ROUTES).filter((route) => route.document);
        expect(documents).toHaveLength(34);
        for (const route of documents) {
          expect({ [route.field!]: validate(schema, route.document!, rules) }).toEqual({
            [route.field!]: [],
          });
        }
      });
    });

    describe('request timeout (REQUEST_TIMEOUT_MS)', () => {
      it('answers 503 rest_request_timeout with Retry-After on REST and REQUEST_TIMEOUT on GraphQL', async () => {
        const slow = await appWith(env, { requestTimeoutMs: 50 }, 400);
        const response = await slow.yoga.fetch(rest.url('/events'));
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        const body = await response.json();
        expect(body).toMatchObject({ code: 'rest_request_timeout', data: { status: 503 } });
        expect(body.message).toContain('50 ms');
        const gql = await graphql(slow, { query: '{ events { total } }' });
        expect(gql.status).toBe(503);
        expect(gql.body.errors[0].extensions.code).toBe('REQUEST_TIMEOUT');
        const patient = await appWith(env, { requestTimeoutMs: 5000 }, 20);
        expect((await patient.yoga.fetch(rest.url('/events'))).status).toBe(200);
      });
    });

    describe('URL and header length', () => {
      it('answers 414 past MAX_URL_LENGTH: the envelope on REST, a GraphQL error on /graphql', async () => {
        const long = await rest.get(`/events?search=${'a'.repeat(2100)}`);
        expectError(long, 414, 'rest_uri_too_long');
        const query = encodeURIComponent(`{ events(search: "${'b'.repeat(2100)}") { total } }`);
        const response = await env.app.yoga.fetch(`http://localhost/graphql?query=${query}`);
        expect(response.status).toBe(414);
        expect((await response.json()).errors[0].extensions.code).toBe('URI_TOO_LONG');
        expect((await rest.get(`/events?search=${'a'.repeat(100)}`)).status).toBe(200);
      });

      it('answers 431 with the envelope past MAX_HEADER_BYTES (node:http options)', async () => {
        const config = { ...env.config, maxHeaderBytes: 2048 };
        expect(serverOptions(config)).toMatchObject({ maxHeaderSize: 2048 });
        const server = answerClientErrors(
          createServer(serverOptions(config), env.app.yoga),
          config,
        );
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        const { port } = server.address() as AddressInfo;
        const get = (headers: Record<string, string>) =>
          new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
            (resolve, reject) => {
              const req = http.get(
                { host: '127.0.0.1', port, path: '/wp-json/calendar/events/v1/tags', headers },
                (res) => {
                  let body = '';
                  res.on('data', (chunk: Buffer) => (body += chunk.toString()));
                  res.on('end', () =>
                    resolve({ status: res.statusCode!, headers: res.headers, body }),
                  );
                },
              );
              req.on('error', reject);
            },
          );
        try {
          const ok = await get({});
          expect(ok.status).toBe(200);
          // Sent once (Node joins repeated headers: "nosniff, nosniff" if sent twice).
          expect(ok.headers['x-content-type-options']).toBe('nosniff');
          const big = await get({ 'x-filler': 'f'.repeat(4000) });
          expect(big.status).toBe(431);
          expect(JSON.parse(big.body)).toMatchObject({
            code: 'rest_headers_too_large',
            data: { status: 431 },
          });
          expect(big.headers['x-content-type-options']).toBe('nosniff');
        } finally {
          server.closeAllConnections();
          server.close();
        }
      });
    });
  },
  { MAX_BODY_BYTES: '4096', MAX_ARRAY_LENGTH: '5', MAX_URL_LENGTH: '2048' },
);

describe('limit settings', () => {
  it('has documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      maxBodyBytes: 1_048_576,
      maxArrayLength: 100,
      graphqlMaxDepth: 7,
      graphqlCostAnonymous: 5000,
      graphqlCostAuthenticated: 20_000,
      requestMaxStatements: 1000,
      graphqlMaxAliases: 15,
      graphqlMaxTokens: 5000,
      requestTimeoutMs: 30_000,
      maxUrlLength: 8192,
      maxHeaderBytes: 16_384,
      authRateLimitClient: 20,
      authRateLimitLogin: 10,
      authRateLimitWindowSeconds: 900,
      trustProxy: false,
      hstsMaxAge: 0,
    });
  });

  it.each([
    ['MAX_ARRAY_LENGTH', '0'],
    ['GRAPHQL_MAX_DEPTH', 'deep'],
    ['GRAPHQL_COST_ANONYMOUS', '-5'],
    ['REQUEST_TIMEOUT_MS', '1.5'],
    ['MAX_URL_LENGTH', '10'],
    ['MAX_HEADER_BYTES', '99999999999'],
    ['AUTH_RATE_LIMIT_CLIENT', '0'],
    ['AUTH_RATE_LIMIT_WINDOW', 'forever'],
    ['TRUST_PROXY', 'yes'],
    ['HSTS_MAX_AGE', '-1'],
    ['LOG_LEVEL', 'verbose'],
  ])('rejects %s=%s with one sentence naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must`));
  });
});
