import { loadConfig } from '../../src/config/config';
import { createDb, type Db } from '../../src/db/knex';
import { createLogger } from '../../src/http/logger';
import { migrateLatest } from '../../src/db/migrate';
import { createApp, type App } from '../../src/http/server';
import { mysqlAdmin, mysqlDatabaseUrl } from '../support/mysql';
import { ServerProcess } from '../support/process';
import { TcpProxy, type CutMode } from '../support/proxy';

/**
 * MySQL unreachable (ISSUE 5, faults). A TCP proxy between the service and MariaDB is cut and
 * restored — the shared MariaDB server itself is never touched. Requests must answer a clean 503
 * in bounded time, and the service must recover by itself.
 */

const TOKEN = 'outage-admin-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const DATES = { start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 12:00:00' };
const CONNECT_TIMEOUT_MS = 500;
/** An answer must come within this, whatever the failure (connect timeout + margin). */
const BOUND_MS = 2_500;

const mysqlOn = process.env.TEST_MYSQL === 'on';
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const describeMysql = mysqlOn ? describe : describe.skip;

describeMysql('MySQL outage [mysql]', () => {
  const name = `cal_${process.env.TEST_RUN_ID ?? 'x'}_${process.pid}_outage`.toLowerCase();
  const direct = new URL(mysqlDatabaseUrl(name));
  const proxy = new TcpProxy(direct.hostname, Number(direct.port || 3306));
  const warnings: string[] = [];
  const logs: string[] = [];
  let db: Db;
  let app: App;

  beforeAll(async () => {
    await mysqlAdmin([
      `DROP DATABASE IF EXISTS \`${name}\``,
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`,
    ]);
    const port = await proxy.start();
    const proxied = new URL(direct.toString());
    proxied.hostname = '127.0.0.1';
    proxied.port = String(port);
    const config = loadConfig({
      DATABASE_URL: proxied.toString(),
      SITE_URL: 'http://calendar.test',
      ADMIN_TOKEN: TOKEN,
      DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      DB_ACQUIRE_TIMEOUT_MS: '2000',
    });
    db = createDb({
      databaseUrl: config.databaseUrl,
      poolMax: 4,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      acquireTimeoutMs: config.dbAcquireTimeoutMs,
      warn: (message) => warnings.push(message),
    });
    await migrateLatest(db);
    // The app's log, to check how an outage is reported.
    const logger = createLogger('warn', { write: (line: string) => void logs.push(line) });
    app = await createApp({ config, db, logger });
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await proxy.stop();
    await mysqlAdmin([`DROP DATABASE IF EXISTS \`${name}\``]);
  });

  async function rest(method: string, path: string, body?: unknown, auth = false) {
    const started = Date.now();
    const response = await app.yoga.fetch(`http://localhost/wp-json/calendar/events/v1${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(auth ? AUTH : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : null,
      ms: Date.now() - started,
    };
  }

  async function graphql(query: string, auth = false) {
    const started = Date.now();
    const response = await app.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? AUTH : {}) },
      body: JSON.stringify({ query }),
    });
    return { status: response.status, body: await response.json(), ms: Date.now() - started };
  }

  function expectUnavailable(response: Awaited<ReturnType<typeof rest>>): void {
    expect({ status: response.status, body: response.body }).toEqual({
      status: 503,
      body: {
        code: 'rest_service_unavailable',
        message: expect.any(String),
        data: { status: 503 },
      },
    });
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.ms).toBeLessThan(BOUND_MS);
  }

  async function expectGraphqlUnavailable(query: string, auth = false): Promise<void> {
    const response = await graphql(query, auth);
    expect(response.status).toBe(503);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(response.body.errors[0].message).not.toMatch(/ECONN|select|insert/i);
    expect(response.ms).toBeLessThan(BOUND_MS);
  }

  async function countEvents(title: string): Promise<number> {
    // Straight to MariaDB, not through the proxy.
    const check = createDb({ databaseUrl: direct.toString(), poolMax: 1 });
    try {
      return (await check('events').where({ title })).length;
    } finally {
      await check.destroy();
    }
  }

  it('answers normally through the proxy', async () => {
    expect((await rest('GET', '/events')).status).toBe(200);
    expect((await rest('POST', '/events', { title: 'Before', ...DATES }, true)).status).toBe(201);
  });

  it.each<[CutMode]>([['refuse'], ['blackhole']])(
    'with MySQL unreachable (%s): clean 503s in bounded time, then recovers by itself',
    async (mode) => {
      proxy.cut(mode);
      logs.length = 0;
      const title = `During ${mode}`;
      expectUnavailable(await rest('GET', '/events'));
      expectUnavailable(await rest('GET', '/venues/1'));
      // Authentication reads the database before anything else: still a 503, not a 401/500.
      expectUnavailable(await rest('POST', '/events', { title, ...DATES }, true));
      await expectGraphqlUnavailable('{ events { total } }');
      await expectGraphqlUnavailable(
        `mutation { create_event(input: {title: "${title}", start_date: "${DATES.start_date}", end_date: "${DATES.end_date}"}) { id } }`,
        true,
      );
      // Parallel requests during the outage all fail fast too.
      const burst = await Promise.all(Array.from({ length: 6 }, () => rest('GET', '/events')));
      for (const response of burst) expectUnavailable(response);

      proxy.restore();
      const list = await rest('GET', '/events');
      expect(list.status).toBe(200);
      const created = await rest('POST', '/events', { title: `After ${mode}`, ...DATES }, true);
      expect(created.status).toBe(201);
      expect((await graphql('{ events { total } }')).body.data.events.total).toBeGreaterThan(0);
      // The write refused during the outage changed nothing.
      expect(await countEvents(title)).toBe(0);
      // Logged as what it is, one warning per request; no 500 "unexpected error".
      const messages = logs.map((line) => JSON.parse(line) as { msg: string });
      expect(messages.some((m) => m.msg === 'database unavailable')).toBe(true);
      expect(messages.some((m) => m.msg === 'unexpected error')).toBe(false);
    },
    30_000,
  );

  it('writes caught by a cut either commit whole or not at all', async () => {
    const title = (i: number): string => `Cut write ${i}`;
    let cut = false;
    // The proxy is cut as soon as the first write is acknowledged: others are mid-transaction.
    const writes = Array.from({ length: 16 }, (_, i) =>
      rest(
        'POST',
        '/events',
        {
          title: title(i),
          ...DATES,
          venue: { venue: `Cut hall ${i}` },
          organizer: [{ organizer: `Cut org ${i}a` }, { organizer: `Cut org ${i}b` }],
          categories: [`Cut category ${i}`],
        },
        true,
      ).then((response) => {
        if (response.status === 201 && !cut) {
          cut = true;
          proxy.cut('refuse');
        }
        return response;
      }),
    );
    const responses = await Promise.all(writes);
    proxy.restore();
    for (const response of responses) expect([201, 503]).toContain(response.status);
    const check = createDb({ databaseUrl: direct.toString(), poolMax: 1 });
    try {
      for (const [i, response] of responses.entries()) {
        const rows = await check('events').where({ title: title(i) });
        if (response.status === 201) expect(rows).toHaveLength(1);
        // A 503 says nothing was acknowledged; what exists must be whole.
        for (const row of rows) {
          expect(row.venue_id).not.toBeNull();
          expect(await check('event_organizers').where({ event_id: row.id })).toHaveLength(2);
          expect(await check('event_terms').where({ event_id: row.id })).toHaveLength(1);
        }
        if (rows.length === 0) {
          expect(await check('venues').where({ title: `Cut hall ${i}` })).toHaveLength(0);
        }
      }
    } finally {
      await check.destroy();
    }
    expect((await rest('GET', '/events')).status).toBe(200);
  });

  it('logs failed connection attempts briefly: first line only, throttled', () => {
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) expect(warning).not.toContain('\n');
  });
});

describeMysql('start-up with MySQL unreachable [mysql]', () => {
  const proxy = new TcpProxy('127.0.0.1', 1);
  let port: number;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    port = await proxy.start();
  });

  afterAll(async () => {
    await server?.stop();
    await proxy.stop();
  });

  it('retries with one log line per attempt, then exits 1 with a clear message', async () => {
    proxy.cut('refuse');
    server = new ServerProcess({
      DATABASE_URL: `mysql://root:secret@127.0.0.1:${port}/calendar`,
      DB_STARTUP_TIMEOUT_MS: '2500',
    });
    expect(await server.exited).toBe(1);
    const where = `mysql://root:***@127.0.0.1:${port}/calendar`;
    const retries = server.stderr.filter((l) => l.startsWith('Database not reachable'));
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(retries[0]).toMatch(
      new RegExp(
        `^Database not reachable at ${escape(where)} \\(attempt 1\\): .+\\. Retrying in 0\\.5 s\\.$`,
      ),
    );
    expect(server.stderr.at(-1)).toMatch(
      new RegExp(
        `^Cannot reach the database at ${escape(where)} after \\d+ attempt\\(s\\) in [\\d.]+ s ` +
          '\\(DB_STARTUP_TIMEOUT_MS=2500\\): .+\\. Check DATABASE_URL and that the database server is running and reachable\\.$',
      ),
    );
    expect(server.output()).not.toContain('secret');
  }, 30_000);

  it('keeps retrying while the budget lasts and comes up when MySQL returns', async () => {
    const name = `cal_${process.env.TEST_RUN_ID ?? 'x'}_${process.pid}_late`.toLowerCase();
    const direct = new URL(mysqlDatabaseUrl(name));
    const late = new TcpProxy(direct.hostname, Number(direct.port || 3306));
    const latePort = await late.start();
    await mysqlAdmin([
      `DROP DATABASE IF EXISTS \`${name}\``,
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`,
    ]);
    try {
      late.cut('refuse');
      const proxied = new URL(direct.toString());
      proxied.hostname = '127.0.0.1';
      proxied.port = String(latePort);
      server = new ServerProcess({
        DATABASE_URL: proxied.toString(),
        DB_STARTUP_TIMEOUT_MS: '20000',
        ADMIN_TOKEN: TOKEN,
      });
      await server.waitFor('a retry line', () => server!.line(/^Database not reachable/));
      late.restore();
      const base = await server.listening();
      const response = await fetch(`${base}/wp-json/calendar/events/v1/events`);
      expect(response.status).toBe(200);
      server.signal('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await server?.stop();
      await late.stop();
      await mysqlAdmin([`DROP DATABASE IF EXISTS \`${name}\``]);
    }
  }, 45_000);
});
