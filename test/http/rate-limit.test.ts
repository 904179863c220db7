import { createAppPassword } from '../../src/users/credentials';
import { loadConfig, type Config } from '../../src/config/config';
import { createApp, type App } from '../../src/http/server';
import { insertEvent } from '../support/event-fixtures';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * Brute-force protection (docs/security.md "Credential throttling"). Rejected credentials count
 * per client, per (client, credential) and, for HTTP Basic, per login; past a limit a rejected
 * credential answers 429 `rest_too_many_requests` with Retry-After instead of 401 — and a valid
 * credential is still served, so a guesser sharing an address never locks anyone out. Wrong
 * event passwords count per client and event; past the limit every guess from that client at
 * that event answers 429, the right one included.
 */

const NS = 'http://localhost/wp-json/calendar/events/v1';
const EVENTS = `${NS}/events`;

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/** A server context as node:http gives one: the client's socket address. */
function from(address: string): Record<string, unknown> {
  return { req: { socket: { remoteAddress: address } } };
}

async function appWith(env: TestEnv, changes: Partial<Config>): Promise<App> {
  return createApp({ config: { ...env.config, ...changes }, db: env.db, now: () => env.now });
}

async function get(
  app: App,
  authorization: string | null,
  address = '198.51.100.1',
  headers: Record<string, string> = {},
  url = EVENTS,
) {
  const response = await app.yoga.fetch(
    url,
    { headers: { ...(authorization ? { authorization } : {}), ...headers } },
    from(address),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function graphql(
  app: App,
  query: string,
  variables: Record<string, unknown>,
  address: string,
  authorization?: string,
) {
  const response = await app.yoga.fetch(
    'http://localhost/graphql',
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify({ query, variables }),
    },
    from(address),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const wrongToken = (i: number) => `Bearer cal_${i}_${'x'.repeat(43)}`;

describeEachDb('credential throttling', (env) => {
  it('answers a repeated wrong token 429, and the right token from the same address 200', async () => {
    const app = await appWith(env, {
      authRateLimitCredential: 3,
      authRateLimitClient: 1000,
      authRateLimitLogin: 1000,
    });
    const admin = await env.user('administrator');
    const office = '203.0.113.10';
    const first = await get(app, wrongToken(1), office);
    expect(first.status).toBe(401);
    expect(first.headers.get('retry-after')).toBeNull();
    expect((await get(app, wrongToken(1), office)).status).toBe(401);
    expect((await get(app, wrongToken(1), office)).status).toBe(401);
    const blocked = await get(app, wrongToken(1), office);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      code: 'rest_too_many_requests',
      message: expect.stringMatching(/^Too many failed authentication attempts; try again in \d+/),
      data: { status: 429 },
    });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(env.config.authRateLimitWindowSeconds);
    // During that lockout: the right token from the same address is served, on REST and GraphQL.
    expect((await get(app, `Bearer ${admin.token}`, office)).status).toBe(200);
    const viewer = await graphql(app, '{ viewer { id } }', {}, office, `Bearer ${admin.token}`);
    expect(viewer.status).toBe(200);
    expect(viewer.body.data.viewer.id).toBe(admin.id);
    // Another wrong token is a first failure of its own; the blocked one stays blocked elsewhere
    // only for this address.
    expect((await get(app, wrongToken(2), office)).status).toBe(401);
    expect((await get(app, wrongToken(1), '203.0.113.11')).status).toBe(401);
  });

  it('answers 429 to every rejected credential of a client past AUTH_RATE_LIMIT_CLIENT, never to a valid one', async () => {
    const app = await appWith(env, { authRateLimitClient: 4, authRateLimitLogin: 1000 });
    const admin = await env.user('administrator');
    const attacker = '203.0.113.50';
    for (let i = 0; i < 4; i++) {
      expect((await get(app, wrongToken(100 + i), attacker)).status).toBe(401);
    }
    expect((await get(app, wrongToken(200), attacker)).status).toBe(429);
    const refused = await graphql(app, '{ viewer { id } }', {}, attacker, wrongToken(201));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.errors[0].extensions).toEqual({
      code: 'TOO_MANY_REQUESTS',
      rest_code: 'rest_too_many_requests',
    });
    // The right token from the same address, REST and GraphQL; other clients; no credentials.
    expect((await get(app, `Bearer ${admin.token}`, attacker)).status).toBe(200);
    const ok = await graphql(app, '{ viewer { id } }', {}, attacker, `Bearer ${admin.token}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.viewer.id).toBe(admin.id);
    expect((await get(app, wrongToken(202), '198.51.100.9')).status).toBe(401);
    expect((await get(app, null, attacker)).status).toBe(200);
  });

  it('answers 429 to wrong passwords of a login past AUTH_RATE_LIMIT_LOGIN, from any client; the right one still works', async () => {
    const app = await appWith(env, { authRateLimitLogin: 3, authRateLimitClient: 1000 });
    const editor = await env.user('editor');
    const password = (await createAppPassword(env.db, editor.id, 'laptop', env.now)).secret;
    expect((await get(app, basic(editor.login, password))).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const failed = await get(app, basic(editor.login, `wrong-${i}`), `203.0.113.${i}`);
      expect(failed.status).toBe(401);
    }
    // The login's case does not matter.
    const blocked = await get(app, basic(editor.login.toUpperCase(), 'wrong-x'), '192.0.2.77');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await get(app, basic(editor.login, password), '192.0.2.77')).status).toBe(200);
    expect((await get(app, basic(editor.login, password), '203.0.113.0')).status).toBe(200);
    // Other logins are not affected.
    const author = await env.user('author');
    expect((await get(app, basic(author.login, 'wrong'), '192.0.2.77')).status).toBe(401);
    expect((await get(app, `Bearer ${editor.token}`, '192.0.2.77')).status).toBe(200);
  });

  it('counts failures only: successful authentications never throttle', async () => {
    const app = await appWith(env, {
      authRateLimitClient: 2,
      authRateLimitLogin: 2,
      authRateLimitCredential: 2,
    });
    const admin = await env.user('administrator');
    for (let i = 0; i < 10; i++) {
      expect((await get(app, `Bearer ${admin.token}`, '198.51.100.20')).status).toBe(200);
    }
    expect((await get(app, 'Bearer nope-nope-nope-nope-nope', '198.51.100.20')).status).toBe(401);
    expect((await get(app, `Bearer ${admin.token}`, '198.51.100.20')).status).toBe(200);
  });

  it('ends the lockout with the window', async () => {
    const app = await appWith(env, {
      authRateLimitCredential: 1,
      authRateLimitClient: 1000,
      authRateLimitWindowSeconds: 1,
    });
    expect((await get(app, 'Bearer wrong-wrong-wrong-wrong', '198.51.100.30')).status).toBe(401);
    expect((await get(app, 'Bearer wrong-wrong-wrong-wrong', '198.51.100.30')).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await get(app, 'Bearer wrong-wrong-wrong-wrong', '198.51.100.30')).status).toBe(401);
  });

  it('uses the last X-Forwarded-For address behind a trusted proxy (TRUST_PROXY), never otherwise', async () => {
    const trusting = await appWith(env, { authRateLimitClient: 2, trustProxy: true });
    const admin = await env.user('administrator');
    const proxy = '10.0.0.1';
    const forwarded = (client: string) => ({ 'x-forwarded-for': `1.2.3.4, ${client}` });
    for (let i = 0; i < 2; i++) {
      const failed = await get(trusting, wrongToken(300 + i), proxy, forwarded('203.0.113.7'));
      expect(failed.status).toBe(401);
    }
    expect((await get(trusting, wrongToken(310), proxy, forwarded('203.0.113.7'))).status).toBe(
      429,
    );
    expect((await get(trusting, wrongToken(311), proxy, forwarded('203.0.113.8'))).status).toBe(
      401,
    );
    expect(
      (await get(trusting, `Bearer ${admin.token}`, proxy, forwarded('203.0.113.7'))).status,
    ).toBe(200);
    // Without TRUST_PROXY a client cannot dodge the limit by sending the header.
    const direct = await appWith(env, { authRateLimitClient: 2 });
    for (let i = 0; i < 2; i++) {
      await get(direct, wrongToken(320 + i), '203.0.113.9', forwarded(`9.9.9.${i}`));
    }
    expect((await get(direct, wrongToken(330), '203.0.113.9', forwarded('9.9.9.99'))).status).toBe(
      429,
    );
  });
});

describeEachDb('event password throttling', (env) => {
  const BY_ID =
    'query($id: Int!, $password: String) { event(id: $id, password: $password) { id title } }';

  async function protectedEvent(title: string): Promise<number> {
    return insertEvent(env, { title, start: '2027-03-01 10:00:00', password: 'sesame' });
  }

  it('answers 429 after EVENT_PASSWORD_RATE_LIMIT wrong guesses per client and event, REST and GraphQL alike', async () => {
    const app = await appWith(env, { eventPasswordRateLimit: 4 });
    const id = await protectedEvent('Guarded');
    const guesser = '203.0.113.60';
    const single = (password: string, address = guesser, eventId = id) =>
      get(app, null, address, {}, `${EVENTS}/${eventId}?password=${encodeURIComponent(password)}`);
    // Asking without a password is no guess.
    for (let i = 0; i < 6; i++) expect((await single('')).status).toBe(403);
    expect((await single('sesame')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      expect((await single(`guess-${i}`)).body.code).toBe('event-password-protected');
    }
    for (let i = 2; i < 4; i++) {
      const wrong = await graphql(app, BY_ID, { id, password: `guess-${i}` }, guesser);
      expect(wrong.body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
    const blocked = await single('guess-5');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      code: 'rest_too_many_requests',
      message: expect.stringMatching(/^Too many wrong passwords; try again in \d+ second/),
      data: { status: 429 },
    });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Past the limit the right password is refused too (a guess that says nothing).
    expect((await single('sesame')).status).toBe(429);
    const viaGraphql = await graphql(app, BY_ID, { id, password: 'sesame' }, guesser);
    expect(viaGraphql.status).toBe(429);
    expect(Number(viaGraphql.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(viaGraphql.body.errors[0].extensions).toEqual({
      code: 'TOO_MANY_REQUESTS',
      rest_code: 'rest_too_many_requests',
    });
    // Other clients, and the same client at another event, are not affected.
    expect((await single('sesame', '198.51.100.61')).status).toBe(200);
    const other = await protectedEvent('Other guarded');
    expect((await single('sesame', guesser, other)).status).toBe(200);
    // Callers who may edit the event need no password, so they guess nothing.
    const admin = await env.user('administrator');
    const edited = await get(app, `Bearer ${admin.token}`, guesser, {}, `${EVENTS}/${id}`);
    expect(edited.status).toBe(200);
  });

  it('counts guesses sent at once without overshooting the limit', async () => {
    const app = await appWith(env, { eventPasswordRateLimit: 3 });
    const id = await protectedEvent('Parallel');
    const address = '203.0.113.65';
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        get(app, null, address, {}, `${EVENTS}/${id}?password=guess-${i}`),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([403, 403, 403, 429, 429, 429]);
    const url = `${EVENTS}/${id}?password=sesame`;
    expect((await get(app, null, address, {}, url)).status).toBe(429);
  });

  it('throttles in-process calls (no client address) as one client', async () => {
    const app = await appWith(env, { eventPasswordRateLimit: 2 });
    const id = await protectedEvent('In process');
    const status = async (password: string) =>
      (await app.yoga.fetch(`${EVENTS}/${id}?password=${password}`)).status;
    expect([await status('a'), await status('b'), await status('sesame')]).toEqual([403, 403, 429]);
  });

  it('keeps the right password working until the limit and forgets the guesses with the window', async () => {
    const app = await appWith(env, {
      eventPasswordRateLimit: 2,
      authRateLimitWindowSeconds: 1,
    });
    const id = await protectedEvent('Windowed');
    const address = '203.0.113.70';
    const url = (password: string) => `${EVENTS}/${id}?password=${password}`;
    expect((await get(app, null, address, {}, url('nope'))).status).toBe(403);
    expect((await get(app, null, address, {}, url('sesame'))).status).toBe(200);
    expect((await get(app, null, address, {}, url('nope'))).status).toBe(403);
    expect((await get(app, null, address, {}, url('sesame'))).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await get(app, null, address, {}, url('sesame'))).status).toBe(200);
  });
});

describe('throttle settings', () => {
  it('has documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      authRateLimitClient: 20,
      authRateLimitLogin: 10,
      authRateLimitCredential: 5,
      authRateLimitWindowSeconds: 900,
      eventPasswordRateLimit: 10,
    });
  });

  it.each([
    ['AUTH_RATE_LIMIT_CREDENTIAL', '0'],
    ['EVENT_PASSWORD_RATE_LIMIT', 'many'],
    ['EVENT_PASSWORD_RATE_LIMIT', '0'],
  ])('rejects %s=%s with one sentence naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must`));
  });
});
