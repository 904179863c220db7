import { Redis } from 'ioredis';
import type { Config } from '../../src/config/config';
import { createApp, type App } from '../../src/http/server';
import { closeSharedStores, sharedStore, storeKeyPrefix } from '../../src/http/shared-store';
import { freePorts } from '../../scripts/chaos/processes';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * Throttle counters shared through Redis (docs/operations.md "Redis shared state"): two
 * instances of the app (two `createApp`, as two processes would be) on one database and one
 * real Redis count the same failures, so failures split across them still hit the limit; with
 * Redis unreachable each instance keeps serving and counts on its own. Keys live under the
 * test database's own prefix, removed before and after.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const EVENTS = 'http://localhost/wp-json/calendar/events/v1/events';
const CLIENT = { req: { socket: { remoteAddress: '198.51.100.7' } } };

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

async function status(app: App, authorization: string): Promise<number> {
  const response = await app.yoga.fetch(EVENTS, { headers: { authorization } }, CLIENT);
  await response.arrayBuffer();
  return response.status;
}

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const LIMITS: Partial<Config> = {
  authRateLimitLogin: 4,
  authRateLimitClient: 1000,
  authRateLimitCredential: 1000,
};

describeEachDb('throttling shared by instances through Redis', (env: TestEnv) => {
  let redis: Redis;
  let prefix: string;
  const available = { redis: false };

  const clean = async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  };

  beforeAll(async () => {
    available.redis = await redisAnswers();
    if (!available.redis) {
      if (process.env.REQUIRE_REDIS === '1')
        throw new Error(`Redis is not answering at ${REDIS_URL}`);
      console.warn(
        `SKIPPED: Redis does not answer at ${REDIS_URL} (REQUIRE_REDIS=1 fails instead)`,
      );
      return;
    }
    redis = new Redis(REDIS_URL);
    prefix = storeKeyPrefix(env.config.databaseUrl);
    await clean();
  });
  afterAll(async () => {
    if (redis) {
      await clean();
      redis.disconnect();
    }
    await closeSharedStores();
  });

  const instances = async (changes: Partial<Config>): Promise<[App, App]> => {
    const config = { ...env.config, ...LIMITS, ...changes };
    const make = () => createApp({ config, db: env.db, now: () => env.now, bootstrap: false });
    const apps: [App, App] = [await make(), await make()];
    // A new connection is counted per process until it is up: wait for it here.
    if (config.redisUrl) await sharedStore(config).ready();
    return apps;
  };

  it('counts failures split across two instances against one limit', async () => {
    if (!available.redis) return;
    const [one, two] = await instances({ redisUrl: REDIS_URL });
    const wrong = basic('admin', 'not-the-password');
    const answers: number[] = [];
    // Alternating instances: each sees at most 3 of the 6 failures, under its own limit of 4.
    for (let i = 0; i < 6; i++) answers.push(await status(i % 2 === 0 ? one : two, wrong));
    expect(answers).toEqual([401, 401, 401, 401, 429, 429]);
    // The lockout is in Redis, under this database's prefix, for every instance to see.
    expect((await redis.keys(`${prefix}throttle:login*`)).length).toBe(1);
  });

  it('without Redis, each instance counts alone (the same split stays under the limit)', async () => {
    if (!available.redis) return;
    const [one, two] = await instances({ redisUrl: undefined });
    const wrong = basic('admin', 'another-wrong-password');
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push(await status(i % 2 === 0 ? one : two, wrong));
    expect(answers).toEqual([401, 401, 401, 401, 401, 401]);
  });

  it('keeps serving with Redis down: ready, reported down, throttling per instance', async () => {
    if (!available.redis) return;
    const [closedPort] = await freePorts(1);
    const [one] = await instances({ redisUrl: `redis://127.0.0.1:${closedPort}` });
    const ready = await one.yoga.fetch('http://localhost/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', redis: 'down' });
    const metrics = await (await one.yoga.fetch('http://localhost/metrics')).text();
    expect(metrics).toMatch(/^shared_store_up 0$/m);
    const wrong = basic('admin', 'third-wrong-password');
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push(await status(one, wrong));
    expect(answers).toEqual([401, 401, 401, 401, 429]);
  });
});
