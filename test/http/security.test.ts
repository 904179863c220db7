import type { Config } from '../../src/config/config';
import { createApp, type App } from '../../src/http/server';
import { describeEachDb, type TestEnv } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { graphqlRead } from '../support/rest/rest-twin';

/**
 * Security (docs/security.md): security headers on every response, CORS off
 * unless configured, HTML sanitised to an allowlist in descriptions, titles and names as plain
 * text, no stack, SQL or secret in any answer.
 */

const NS = 'http://localhost/wp-json/calendar/events/v1';

async function appWith(env: TestEnv, changes: Partial<Config>): Promise<App> {
  return createApp({ config: { ...env.config, ...changes }, db: env.db, now: () => env.now });
}

/** Payloads that must come out harmless, with what must not survive of each. */
const HOSTILE_HTML = [
  '<script>alert(1)</script><p>ok</p>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<style>body{display:none}</style><p style="background:url(javascript:alert(1))">x</p>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<form action="https://evil.example"><input name=q></form>',
  '<p onclick="alert(1)">x</p>',
];

const SURVIVORS = [
  /<\s*script/i,
  /<\s*(svg|iframe|form|input|style|object|embed)\b/i,
  /\son[a-z]+\s*=/i,
  /javascript:|vbscript:/i,
  /(href|src)\s*=\s*["']?data:/i,
  /style\s*=/i,
];

function expectHarmless(html: string): void {
  for (const pattern of SURVIVORS)
    expect({ html, pattern: pattern.test(html) }).toEqual({ html, pattern: false });
}

describeEachDb('security', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };

  describe('security headers', () => {
    async function responses(app: App): Promise<[string, Response][]> {
      const token = (await env.user('administrator')).token;
      const gql = (body: unknown, extra: Record<string, string> = {}) =>
        app.yoga.fetch('http://localhost/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...extra },
          body: JSON.stringify(body),
        });
      return [
        ['REST list', await app.yoga.fetch(`${NS}/events`)],
        ['REST HEAD', await app.yoga.fetch(`${NS}/events`, { method: 'HEAD' })],
        ['REST 400', await app.yoga.fetch(`${NS}/events?per_page=x`)],
        ['REST 401', await app.yoga.fetch(`${NS}/venues`, { method: 'POST' })],
        ['REST 404', await app.yoga.fetch(`${NS}/nowhere`)],
        ['REST OPTIONS', await app.yoga.fetch(`${NS}/events`, { method: 'OPTIONS' })],
        ['REST 414', await app.yoga.fetch(`${NS}/events?search=${'a'.repeat(9000)}`)],
        [
          'REST 201',
          await app.yoga.fetch(`${NS}/tags`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Header tag ${Math.random()}` }),
          }),
        ],
        ['GraphQL 200', await gql({ query: '{ events { total } }' })],
        ['GraphQL error', await gql({ query: '{ nope }' })],
        [
          'GraphQL 415',
          await app.yoga.fetch('http://localhost/graphql', {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: 'x',
          }),
        ],
        ['unknown path', await app.yoga.fetch('http://localhost/elsewhere')],
      ];
    }

    it('sends them on every response, success or error, REST or GraphQL', async () => {
      for (const [what, response] of await responses(env.app)) {
        const seen = {
          what,
          nosniff: response.headers.get('x-content-type-options'),
          frame: response.headers.get('x-frame-options'),
          referrer: response.headers.get('referrer-policy'),
          csp: response.headers.get('content-security-policy'),
          requestId: /^[0-9a-f-]{36}$/.test(response.headers.get('x-request-id') ?? ''),
          hsts: response.headers.get('strict-transport-security'),
        };
        expect(seen).toEqual({
          what,
          nosniff: 'nosniff',
          frame: 'DENY',
          referrer: 'no-referrer',
          csp: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
          requestId: true,
          hsts: null,
        });
      }
    });

    it('gives GraphiQL the policy it needs, and sends HSTS when HSTS_MAX_AGE is set', async () => {
      const app = await appWith(env, { hstsMaxAge: 31_536_000 });
      const graphiql = await app.yoga.fetch('http://localhost/graphql', {
        headers: { accept: 'text/html' },
      });
      expect(graphiql.headers.get('content-type')).toContain('text/html');
      const csp = graphiql.headers.get('content-security-policy')!;
      // Its own files only (src/graphql/graphiql.ts): no CDN, no inline script.
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unpkg|https?:|'unsafe-inline' https/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(graphiql.headers.get('strict-transport-security')).toBe(
        'max-age=31536000; includeSubDomains',
      );
      const json = await app.yoga.fetch(`${NS}/events`);
      expect(json.headers.get('strict-transport-security')).toBe(
        'max-age=31536000; includeSubDomains',
      );
    });
  });

  describe('CORS', () => {
    it('sends no CORS headers by default, to any origin, preflight included', async () => {
      const origin = { origin: 'https://evil.example' };
      const get = await env.app.yoga.fetch(`${NS}/events`, { headers: origin });
      expect(get.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await env.app.yoga.fetch(`${NS}/events`, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const graphql = await env.app.yoga.fetch('http://localhost/graphql?query={__typename}', {
        headers: origin,
      });
      expect(graphql.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('allows exactly the configured origins', async () => {
      const app = await appWith(env, { corsOrigins: ['https://app.example'] });
      const allowed = await app.yoga.fetch(`${NS}/events`, {
        headers: { origin: 'https://app.example' },
      });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const other = await app.yoga.fetch(`${NS}/events`, {
        headers: { origin: 'https://evil.example' },
      });
      expect(other.headers.get('access-control-allow-origin') ?? '').not.toContain('evil');
    });
  });

  describe('HTML', () => {
    it.each(HOSTILE_HTML)(
      'sanitises descriptions and excerpts to the allowlist: %s',
      async (html) => {
        const event = await rest.post(
          '/events',
          {
            title: 'Sanitised',
            start_date: '2027-05-01 10:00:00',
            end_date: '2027-05-01 11:00:00',
            description: html,
            excerpt: html,
            venue: { venue: `Venue ${html.length}`, description: html },
            organizer: [{ organizer: 'Sanitised org', description: html }],
          },
          admin,
        );
        expect(event.status).toBe(201);
        expectHarmless(event.body.description);
        expectHarmless(event.body.excerpt);
        expectHarmless(event.body.venue.description ?? '');
        expectHarmless(event.body.organizer[0].description ?? '');
        const read = await graphqlRead(env, 'event', event.body.id);
        expect(read.record!.description).toBe(event.body.description);
        const category = await rest.post(
          '/categories',
          { name: `Cat ${Math.random()}`, description: html },
          admin,
        );
        expectHarmless(category.body.description);
      },
    );

    it('keeps the allowed formatting', async () => {
      const html =
        '<p>Hello <strong>bold</strong> <em>it</em> <a href="https://example.com" title="t">link</a></p><ul><li>one</li></ul>';
      const venue = await rest.post('/venues', { venue: 'Formatted', description: html }, admin);
      // Stored as sent; REST sends it through WordPress's auto-paragraph filter (contract §4).
      const stored = await env.ok('query($id: Int!) { venue(id: $id) { description } }', {
        id: venue.body.id,
      });
      expect(stored.venue.description).toBe(html);
      expect(venue.body.description).toBe(
        '<p>Hello <strong>bold</strong> <em>it</em> <a href="https://example.com" title="t">link</a></p>\n<ul>\n<li>one</li>\n</ul>',
      );
    });

    it('stores titles and names as plain text, exactly as given, and answers them only as JSON strings', async () => {
      const title = `<script>alert("t")</script> & <b>bold</b> 'quotes' \u202E`;
      const event = await rest.post(
        '/events',
        { title, start_date: '2027-05-02 10:00:00', end_date: '2027-05-02 11:00:00' },
        admin,
      );
      expect(event.status).toBe(201);
      // Stored exactly; REST sends it through WordPress's title filters, with the markup
      // escaped as the plain text it is (contract §4); JSON-LD carries the same text, decoded.
      const rendered =
        '&lt;script&gt;alert("t")&lt;/script&gt; &#038; &lt;b&gt;bold&lt;/b&gt; &#8216;quotes&#8217; \u202E';
      const stored = await env.ok('query($id: Int!) { event(id: $id) { title } }', {
        id: event.body.id,
      });
      expect(stored.event.title).toBe(title);
      expect(event.body.title).toBe(rendered);
      expect(event.body.slug).toMatch(/^[a-z0-9-]+$/);
      expect(event.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(event.headers.get('x-content-type-options')).toBe('nosniff');
      const single = await rest.get(`/events/${event.body.id}`);
      expect(single.body.title).toBe(rendered);
      expect(single.body.json_ld.name).toBe(
        '<script>alert("t")</script> & <b>bold</b> \u2018quotes\u2019 \u202E',
      );
      const venue = await rest.post('/venues', { venue: title }, admin);
      expect(venue.body.venue).toBe(rendered);
      const tag = await rest.post('/tags', { name: '<img src=x onerror=alert(1)>' }, admin);
      expect(tag.body.name).toBe('<img src=x onerror=alert(1)>');
    });
  });

  describe('no stack, SQL or secret in answers', () => {
    it('masks unexpected errors on REST and GraphQL, in development mode too', async () => {
      const previous = process.env.NODE_ENV;
      process.env.NODE_ENV = 'development';
      let app: App;
      try {
        app = await appWith(env, {});
      } finally {
        process.env.NODE_ENV = previous;
      }
      const { deps } = app;
      const db = deps.db;
      deps.db = Object.assign(
        () => {
          throw new Error("select * from `venues` where `password` = 'hunter2' exploded");
        },
        { transaction: db.transaction.bind(db), on: db.on.bind(db) },
      ) as unknown as typeof db;
      try {
        const restAnswer = await app.yoga.fetch(`${NS}/venues`);
        const restText = await restAnswer.text();
        expect(restAnswer.status).toBe(500);
        expect(JSON.parse(restText)).toEqual({
          code: 'rest_internal_error',
          message: 'Unexpected error.',
          data: { status: 500 },
        });
        const gqlAnswer = await app.yoga.fetch('http://localhost/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ venues { total } }' }),
        });
        const gqlText = await gqlAnswer.text();
        for (const text of [restText, gqlText]) {
          expect(text).not.toMatch(/select|venues`|hunter2|exploded|\bat\s|stack|\.ts:/);
        }
        expect(JSON.parse(gqlText).errors[0]).toMatchObject({
          message: 'Unexpected error.',
          extensions: { code: 'INTERNAL_SERVER_ERROR', rest_code: 'rest_internal_error' },
        });
      } finally {
        deps.db = db;
      }
    });

    it('never answers an event password, a token or a hash', async () => {
      const secret = 'open-sesame-1234';
      const event = await rest.post(
        '/events',
        {
          title: 'Locked',
          start_date: '2027-05-03 10:00:00',
          end_date: '2027-05-03 11:00:00',
          password: secret,
        },
        admin,
      );
      expect(event.status).toBe(201);
      const token = (await env.user('administrator')).token;
      const answers = [
        event.text,
        (await rest.get(`/events/${event.body.id}`, { ...admin, headers: {} })).text,
        (await rest.get('/events', admin)).text,
        JSON.stringify(await env.gql('{ viewer { id login role } }', {}, admin)),
      ];
      const hashes = (await env.db('api_tokens').select('secret_hash')).map((r) => r.secret_hash);
      for (const text of answers) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(token);
        for (const hash of hashes) expect(text).not.toContain(hash);
      }
      const wrong = await rest.get(`/events/${event.body.id}?password=nope`);
      expectError(wrong, 403, 'event-password-protected');
    });
  });
});
