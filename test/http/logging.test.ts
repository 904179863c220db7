import { createAppPassword } from '../../src/users/credentials';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/http/logger';
import { createApp, type App } from '../../src/http/server';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * Structured JSON logs (pino): one access line per request with method, route, path, status,
 * duration and request id; the request id is the client's valid X-Request-Id or a generated
 * one, echoed in the response; no Authorization header, secret, body or SQL value ever logged.
 */

const NS = 'http://localhost/wp-json/calendar/events/v1';

interface Captured {
  app: App;
  lines: () => Record<string, any>[];
  text: () => string;
}

async function capturing(env: TestEnv): Promise<Captured> {
  const written: string[] = [];
  const logger = createLogger('info', { write: (line: string) => written.push(line) });
  const app = await createApp({ config: env.config, db: env.db, now: () => env.now, logger });
  return {
    app,
    lines: () => written.map((line) => JSON.parse(line)),
    text: () => written.join(''),
  };
}

describeEachDb('logging', (env) => {
  it('writes one JSON access line per request, with the id echoed in X-Request-Id', async () => {
    const { app, lines } = await capturing(env);
    const list = await app.yoga.fetch(`${NS}/events?per_page=2`);
    const single = await app.yoga.fetch(`${NS}/events/99999`);
    const graphql = await app.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ events { total } }' }),
    });
    const access = lines().filter((line) => line.msg === 'request');
    expect(access).toHaveLength(3);
    expect(access[0]).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      msg: 'request',
      request_id: list.headers.get('x-request-id'),
      method: 'GET',
      route: '/events',
      path: '/wp-json/calendar/events/v1/events?per_page=2',
      status: 200,
      duration_ms: expect.any(Number),
    });
    expect(access[1]).toMatchObject({
      request_id: single.headers.get('x-request-id'),
      route: '/events/(?P<id>\\d+)',
      status: 404,
    });
    expect(access[2]).toMatchObject({
      request_id: graphql.headers.get('x-request-id'),
      route: '/graphql',
      status: 200,
    });
    expect(new Set(access.map((line) => line.request_id)).size).toBe(3);
  });

  it('keeps a valid incoming X-Request-Id and replaces a hostile one', async () => {
    const { app, lines } = await capturing(env);
    const kept = await app.yoga.fetch(`${NS}/tags`, {
      headers: { 'x-request-id': 'trace-42.abc:7' },
    });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.abc:7');
    for (const hostile of ['a'.repeat(200), 'has spaces', '"quoted"', '{"json":1}', '']) {
      const replaced = await app.yoga.fetch(`${NS}/tags`, { headers: { 'x-request-id': hostile } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(lines()[0]).toMatchObject({ request_id: 'trace-42.abc:7' });
  });

  it('never logs credentials, secret parameters, bodies or SQL values', async () => {
    const { app, text } = await capturing(env);
    const admin = await env.user('administrator');
    const password = (await createAppPassword(env.db, admin.id, 'log-test', env.now)).secret;
    const basic = Buffer.from(`admin:${password}`).toString('base64');
    const eventPassword = 'the-event-password-77';
    await app.yoga.fetch(`${NS}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Logged body title',
        start_date: '2027-06-01 10:00:00',
        end_date: '2027-06-01 11:00:00',
        password: eventPassword,
      }),
    });
    await app.yoga.fetch(`${NS}/events?password=${eventPassword}&token=${admin.token}`, {
      headers: { authorization: `Basic ${basic}` },
    });
    await app.yoga.fetch(`${NS}/events`, { headers: { authorization: 'Bearer wrong-secret-zzz' } });
    // A database error quoting the values of its statement.
    const { deps } = app;
    const db = deps.db;
    deps.db = Object.assign(
      () => {
        throw new Error(`insert into \`events\` (\`password\`) values ('${eventPassword}') - boom`);
      },
      { transaction: db.transaction.bind(db), on: db.on.bind(db) },
    ) as unknown as typeof db;
    try {
      const failed = await app.yoga.fetch(`${NS}/venues`, {
        headers: { 'x-request-id': 'req-boom' },
      });
      expect(failed.status).toBe(500);
    } finally {
      deps.db = db;
    }
    const logged = text();
    for (const secret of [
      admin.token,
      password,
      basic,
      eventPassword,
      'wrong-secret-zzz',
      'Logged body title',
    ]) {
      expect({ secret, logged: logged.includes(secret) }).toEqual({ secret, logged: false });
    }
    expect(logged).not.toMatch(/authorization/i);
    const errors = logged
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((line) => line.level === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatchObject({
      request_id: 'req-boom',
      err: { type: 'Error', message: expect.stringContaining('values (?) - boom') },
    });
  });

  it('is silent under jest unless LOG_LEVEL says otherwise, info by default', () => {
    expect(loadConfig({}).logLevel).toBe(process.env.LOG_LEVEL?.toLowerCase() ?? 'silent');
    expect(loadConfig({ NODE_ENV: 'production' }).logLevel).toBe('info');
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL must be one of/);
  });
});
