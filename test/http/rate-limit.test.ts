import { createAppPassword } from '../../src/users/credentials';
import type { Config } from '../../src/config/config';
import { createApp, type App } from '../../src/http/server';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * Brute-force protection on credentials (docs/security.md): failed attempts are
 * counted per client address and per login; past the limit every request sending credentials
 * from that client or for that login gets 429 `rest_too_many_requests` with Retry-After — even
 * with the right secret — until the window ends. Successes are not counted; anonymous requests
 * are never throttled.
 */

const EVENTS = 'http://localhost/wp-json/calendar/events/v1/events';

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
) {
  const response = await app.yoga.fetch(
    EVENTS,
    { headers: { ...(authorization ? { authorization } : {}), ...headers } },
    from(address),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describeEachDb('credential brute-force protection', (env) => {
  it('blocks a login after AUTH_RATE_LIMIT_LOGIN failures, right password included, from any client', async () => {
    const app = await appWith(env, { authRateLimitLogin: 3, authRateLimitClient: 1000 });
    const editor = await env.user('editor');
    const password = (await createAppPassword(env.db, editor.id, 'laptop', env.now)).secret;
    expect((await get(app, basic(editor.login, password))).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await get(app, basic(editor.login, `wrong-${i}`), `203.0.113.${i}`)).status).toBe(
        401,
      );
    }
    const blocked = await get(app, basic(editor.login, password), '192.0.2.77');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      code: 'rest_too_many_requests',
      message: expect.stringMatching(/^Too many failed authentication attempts; try again in \d+/),
      data: { status: 429 },
    });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(env.config.authRateLimitWindowSeconds);
    // The login's case does not matter; other logins and bearer tokens are not affected.
    expect((await get(app, basic(editor.login.toUpperCase(), password))).status).toBe(429);
    expect((await get(app, `Bearer ${editor.token}`)).status).toBe(200);
    const author = await env.user('author');
    expect((await get(app, `Bearer ${author.token}`)).status).toBe(200);
    // Anonymous reads are never throttled.
    expect((await get(app, null)).status).toBe(200);
  });

  it('blocks a client after AUTH_RATE_LIMIT_CLIENT failures, on REST and GraphQL', async () => {
    const app = await appWith(env, { authRateLimitClient: 4, authRateLimitLogin: 1000 });
    const admin = await env.user('administrator');
    const attacker = '203.0.113.50';
    for (let i = 0; i < 4; i++) {
      expect((await get(app, `Bearer cal_${i}_${'x'.repeat(43)}`, attacker)).status).toBe(401);
    }
    expect((await get(app, `Bearer ${admin.token}`, attacker)).status).toBe(429);
    const graphql = await app.yoga.fetch(
      'http://localhost/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      },
      from(attacker),
    );
    expect(graphql.status).toBe(429);
    expect(Number(graphql.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await graphql.json();
    expect(body.errors[0].extensions).toEqual({
      code: 'TOO_MANY_REQUESTS',
      rest_code: 'rest_too_many_requests',
    });
    // Other clients, and the attacker without credentials, are served.
    expect((await get(app, `Bearer ${admin.token}`, '198.51.100.9')).status).toBe(200);
    expect((await get(app, null, attacker)).status).toBe(200);
  });

  it('counts failures only: successful authentications never throttle', async () => {
    const app = await appWith(env, { authRateLimitClient: 2, authRateLimitLogin: 2 });
    const admin = await env.user('administrator');
    for (let i = 0; i < 10; i++) {
      expect((await get(app, `Bearer ${admin.token}`, '198.51.100.20')).status).toBe(200);
    }
    expect((await get(app, 'Bearer nope-nope-nope-nope-nope', '198.51.100.20')).status).toBe(401);
    expect((await get(app, `Bearer ${admin.token}`, '198.51.100.20')).status).toBe(200);
  });

  it('ends the block with the window', async () => {
    const app = await appWith(env, {
      authRateLimitClient: 1,
      authRateLimitLogin: 1000,
      authRateLimitWindowSeconds: 1,
    });
    const admin = await env.user('administrator');
    expect((await get(app, 'Bearer wrong-wrong-wrong-wrong', '198.51.100.30')).status).toBe(401);
    expect((await get(app, `Bearer ${admin.token}`, '198.51.100.30')).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await get(app, `Bearer ${admin.token}`, '198.51.100.30')).status).toBe(200);
  });

  it('uses the last X-Forwarded-For address behind a trusted proxy (TRUST_PROXY), never otherwise', async () => {
    const trusting = await appWith(env, { authRateLimitClient: 2, trustProxy: true });
    const admin = await env.user('administrator');
    const proxy = '10.0.0.1';
    const forwarded = (client: string) => ({ 'x-forwarded-for': `1.2.3.4, ${client}` });
    for (let i = 0; i < 2; i++) {
      const failed = await get(
        trusting,
        'Bearer wrong-wrong-wrong-wrong',
        proxy,
        forwarded('203.0.113.7'),
      );
      expect(failed.status).toBe(401);
    }
    expect(
      (await get(trusting, `Bearer ${admin.token}`, proxy, forwarded('203.0.113.7'))).status,
    ).toBe(429);
    expect(
      (await get(trusting, `Bearer ${admin.token}`, proxy, forwarded('203.0.113.8'))).status,
    ).toBe(200);
    // Without TRUST_PROXY a client cannot dodge the limit by sending the header.
    const direct = await appWith(env, { authRateLimitClient: 2 });
    for (let i = 0; i < 2; i++) {
      await get(direct, 'Bearer wrong-wrong-wrong-wrong', '203.0.113.9', forwarded(`9.9.9.${i}`));
    }
    expect(
      (await get(direct, `Bearer ${admin.token}`, '203.0.113.9', forwarded('9.9.9.99'))).status,
    ).toBe(429);
  });
});
