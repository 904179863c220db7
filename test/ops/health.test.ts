import type { Db } from '../../src/db/knex';
import { createDb } from '../../src/db/knex';
import { ReadinessCheck } from '../../src/ops/readiness';
import { createApp, type App } from '../../src/http/server';
import { describeEachDb, type TestEnv } from '../support/harness';

async function get(app: App, path: string, init: RequestInit = {}) {
  const response = await app.yoga.fetch(`http://localhost${path}`, init);
  const text = await response.text();
  return { response, text, body: text ? JSON.parse(text) : null };
}

describeEachDb('liveness and readiness probes', (env: TestEnv) => {
  it('GET /healthz answers 200 {"status":"ok"} without touching the database', async () => {
    let result!: Awaited<ReturnType<typeof get>>;
    const queries = await env.countQueries(async () => {
      result = await get(env.app, '/healthz');
    });
    expect(queries).toBe(0);
    expect(result.response.status).toBe(200);
    expect(result.body).toEqual({ status: 'ok' });
    expect(result.response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(result.response.headers.get('cache-control')).toBe('no-store');
    // The HTTP layer's headers apply here too.
    expect(result.response.headers.get('x-request-id')).toBeTruthy();
    expect(result.response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('HEAD /healthz answers 200 without a body; other methods are not served', async () => {
    const head = await get(env.app, '/healthz', { method: 'HEAD' });
    expect(head.response.status).toBe(200);
    expect(head.text).toBe('');
    const post = await get(env.app, '/healthz', { method: 'POST' });
    expect(post.response.status).toBe(404);
  });

  it('GET /readyz answers 200 on a reachable, migrated database', async () => {
    const { response, body } = await get(env.app, '/readyz');
    expect(response.status).toBe(200);
    expect(body).toEqual({ status: 'ready' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('caches the migration check: a second probe runs only the trivial query', async () => {
    const app = await createApp({ config: env.config, db: env.db });
    const first = await env.countQueries(() => get(app, '/readyz'));
    const second = await env.countQueries(() => get(app, '/readyz'));
    expect(first).toBeGreaterThan(1);
    expect(second).toBe(1);
  });

  it('answers 503 naming the pending migrations when the schema is behind the code', async () => {
    const app = await createApp({ config: env.config, db: env.db });
    const last = await env.db('knex_migrations').orderBy('id', 'desc').first();
    await env.db('knex_migrations').where({ id: last.id }).del();
    try {
      const { response, body } = await get(app, '/readyz');
      expect(response.status).toBe(503);
      expect(body.status).toBe('not_ready');
      expect(body.reason).toMatch(/1 migration\(s\) pending/);
      expect(body.pending).toEqual([String(last.name).replace(/\.(ts|js)$/, '')]);
      // The HTTP layer adds Retry-After to every 503.
      expect(response.headers.get('retry-after')).toBeTruthy();
    } finally {
      await env.db('knex_migrations').insert(last);
    }
    const fresh = await createApp({ config: env.config, db: env.db });
    expect((await get(fresh, '/readyz')).response.status).toBe(200);
  });

  it('answers 503 "database unreachable" when the database cannot be queried', async () => {
    const db = createDb({ databaseUrl: env.config.databaseUrl, poolMax: 1 });
    const app = await createApp({ config: env.config, db });
    await db.destroy();
    const { response, body } = await get(app, '/readyz');
    expect(response.status).toBe(503);
    expect(body.status).toBe('not_ready');
    expect(body.reason).toMatch(/^database unreachable: /);
    // /healthz is about the process only: still 200.
    expect((await get(app, '/healthz')).response.status).toBe(200);
  });
});

describe('ReadinessCheck', () => {
  /** A stand-in for Knex: `raw` runs `onQuery`; migrations are read from a real-looking list. */
  function fakeDb(onQuery: () => Promise<unknown>): Db {
    return {
      raw: onQuery,
      migrate: { list: async () => [[], []] },
    } as unknown as Db;
  }

  it('answers not ready when the database does not answer in time', async () => {
    const check = new ReadinessCheck(
      fakeDb(() => new Promise(() => {})),
      { timeoutMs: 50 },
    );
    await expect(check.check()).resolves.toEqual({
      ready: false,
      reason: 'the database did not answer within 50 ms',
    });
  });

  it('shares one check among concurrent probes', async () => {
    let calls = 0;
    const check = new ReadinessCheck(
      fakeDb(async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }),
    );
    const results = await Promise.all([check.check(), check.check(), check.check()]);
    expect(results).toEqual([{ ready: true }, { ready: true }, { ready: true }]);
    expect(calls).toBe(1);
    await check.check();
    expect(calls).toBe(2);
  });

  it('re-reads the migration state once the cache has expired', async () => {
    let now = 0;
    let lists = 0;
    const db = {
      raw: async () => undefined,
      migrate: {
        list: async () => {
          lists++;
          return [[], []];
        },
      },
    } as unknown as Db;
    const check = new ReadinessCheck(db, { migrationsCacheMs: 1_000 }, () => now);
    await check.check();
    now = 999;
    await check.check();
    expect(lists).toBe(1);
    now = 1_000;
    await check.check();
    expect(lists).toBe(2);
  });
});
