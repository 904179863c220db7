import type { Config } from '../../src/config/config';
import { createApp, type App } from '../../src/http/server';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * CORS (docs/security.md "CORS"): with CORS_ORIGINS set, only those origins are echoed; any other
 * origin gets no Access-Control-* header at all (never `null`, never `*`), on simple requests,
 * preflights and /graphql alike, and every response carries `Vary: Origin`. The list and
 * revalidation headers are exposed.
 */

const NS = 'http://localhost/wp-json/calendar/events/v1';
const ALLOWED = 'https://app.example';
const OTHER = 'https://evil.example';
const EXPOSED = [
  'X-TEC-Total',
  'X-TEC-TotalPages',
  'X-WP-Total',
  'X-WP-TotalPages',
  'Link',
  'ETag',
  'Allow',
];

function corsHeaders(response: Response): string[] {
  return [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
}

function varies(response: Response): string[] {
  return (response.headers.get('vary') ?? '').split(',').map((part) => part.trim().toLowerCase());
}

async function appWith(env: TestEnv, changes: Partial<Config>): Promise<App> {
  return createApp({ config: { ...env.config, ...changes }, db: env.db, now: () => env.now });
}

/** The requests a browser app sends: a REST list and single, errors, GraphQL GET and POST. */
function requests(origin: string | null): [string, string, RequestInit][] {
  const headers: Record<string, string> = origin ? { origin } : {};
  return [
    ['REST list', `${NS}/events`, { headers }],
    ['REST 404', `${NS}/events/99999999`, { headers }],
    [
      'REST 401',
      `${NS}/events`,
      { headers: { ...headers, authorization: 'Bearer nope-nope-nope-nope' } },
    ],
    [
      'REST write',
      `${NS}/events`,
      { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' },
    ],
    ['GraphQL GET', 'http://localhost/graphql?query=%7B__typename%7D', { headers }],
    [
      'GraphQL POST',
      'http://localhost/graphql',
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      },
    ],
    ['SOFA', 'http://localhost/wp-json/calendar/rest/tags', { headers }],
  ];
}

function preflight(origin: string): RequestInit {
  return {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  };
}

describeEachDb('CORS', (env) => {
  for (const origins of [[ALLOWED], [ALLOWED, 'https://admin.example']]) {
    describe(`CORS_ORIGINS=${origins.join(',')}`, () => {
      let app: App;
      beforeAll(async () => {
        app = await appWith(env, { corsOrigins: origins });
      });

      it('echoes an allowed origin and exposes the list and revalidation headers', async () => {
        for (const [what, url, init] of requests(ALLOWED)) {
          const response = await app.yoga.fetch(url, init);
          expect({ what, origin: response.headers.get('access-control-allow-origin') }).toEqual({
            what,
            origin: ALLOWED,
          });
          expect(response.headers.get('access-control-expose-headers')?.split(', ')).toEqual(
            EXPOSED,
          );
          expect(response.headers.get('access-control-allow-credentials')).toBeNull();
          expect({ what, vary: varies(response) }).toEqual({
            what,
            vary: expect.arrayContaining(['origin']),
          });
        }
        // The exposed headers are those the routes send.
        const list = await app.yoga.fetch(`${NS}/events`, { headers: { origin: ALLOWED } });
        for (const name of ['x-wp-total', 'x-wp-totalpages', 'etag', 'allow']) {
          expect({ name, sent: list.headers.has(name) }).toEqual({ name, sent: true });
        }
      });

      it('sends no Access-Control-* header at all to any other origin, with Vary: Origin', async () => {
        for (const origin of [
          OTHER,
          'null',
          'https://app.example.evil.example',
          `${ALLOWED}:8443`,
        ]) {
          for (const [what, url, init] of requests(origin)) {
            const response = await app.yoga.fetch(url, init);
            expect({ what, origin, cors: corsHeaders(response) }).toEqual({
              what,
              origin,
              cors: [],
            });
            expect({ what, vary: varies(response) }).toEqual({
              what,
              vary: expect.arrayContaining(['origin']),
            });
          }
        }
        // Without an Origin the answer varies by it all the same (shared caches).
        for (const [what, url, init] of requests(null)) {
          const response = await app.yoga.fetch(url, init);
          expect({ what, cors: corsHeaders(response) }).toEqual({ what, cors: [] });
          expect({ what, vary: varies(response) }).toEqual({
            what,
            vary: expect.arrayContaining(['origin']),
          });
        }
      });

      it('answers preflights on every route: the policy to an allowed origin, nothing to others', async () => {
        for (const url of [`${NS}/events`, `${NS}/events/12`, 'http://localhost/graphql']) {
          const allowed = await app.yoga.fetch(url, preflight(ALLOWED));
          expect(allowed.status).toBe(204);
          expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
          expect(allowed.headers.get('access-control-allow-methods')).toContain('PATCH');
          expect(allowed.headers.get('access-control-allow-headers')).toContain('Authorization');
          expect(allowed.headers.get('access-control-max-age')).toBe('600');
          expect(varies(allowed)).toContain('origin');
          const other = await app.yoga.fetch(url, preflight(OTHER));
          expect(other.status).toBe(204);
          expect(corsHeaders(other)).toEqual([]);
          expect(varies(other)).toContain('origin');
        }
        // A plain OPTIONS (no preflight) is the REST route's own answer.
        const options = await app.yoga.fetch(`${NS}/events`, { method: 'OPTIONS' });
        expect(options.status).toBe(204);
        expect(options.headers.get('allow')).toContain('POST');
      });
    });
  }

  it('echoes any origin with CORS_ORIGINS=*, never with cookie credentials', async () => {
    const app = await appWith(env, { corsOrigins: ['*'] });
    const response = await app.yoga.fetch(`${NS}/tags`, { headers: { origin: OTHER } });
    expect(response.headers.get('access-control-allow-origin')).toBe(OTHER);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(varies(response)).toContain('origin');
  });

  it('sends no CORS header without CORS_ORIGINS (the default)', async () => {
    expect(env.config.corsOrigins).toEqual([]);
    for (const [what, url, init] of requests(ALLOWED)) {
      const response = await env.app.yoga.fetch(url, init);
      expect({ what, cors: corsHeaders(response) }).toEqual({ what, cors: [] });
    }
    const answer = await env.app.yoga.fetch(`${NS}/events`, preflight(ALLOWED));
    expect(corsHeaders(answer)).toEqual([]);
  });
});
