import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Config } from '../config';

/**
 * State every instance of the service must agree on (docs/operations.md "Redis shared state"):
 * in Redis when `REDIS_URL` is set, else in this process (one instance: the embedded default
 * stays one command). The credential throttles count through it (auth-throttle.ts); a response
 * cache can keep its data generation here (`incr` on write, `get` on read, `publish` /
 * `subscribe` to tell the other instances at once).
 *
 * Redis down: commands fail at once (no queue of commands waiting for a reconnect, so requests
 * never hang on it) while the client reconnects in the background; callers decide what a
 * failure means (the throttles fall back to counting per process), `/readyz` and the
 * `calendar_shared_store_up` gauge report it.
 *
 * Keys live under `calendar:<database name>:`, so calendars with their own databases can share
 * one Redis, and every instance of one calendar (on any node of a cluster) shares its keys.
 */

export interface SharedStore {
  /** `redis`, or `memory` (this process only). */
  readonly kind: 'redis' | 'memory';
  /** Prefix of every key in Redis (applied by the methods below; others' keys add it). */
  readonly keyPrefix: string;
  /** The Redis client (for rate-limiter-flexible's stores), null in memory. */
  readonly redis: Redis | null;
  /** Whether the store answers now (always true in memory). */
  up(): boolean;
  /**
   * Resolves once the first connection is made, or after `timeoutMs` (whichever comes first):
   * for callers that would rather wait than count their first requests per process.
   */
  ready(timeoutMs?: number): Promise<boolean>;
  get(key: string): Promise<string | null>;
  /** Adds one to the integer at `key` (0 when absent); answers the new value. */
  incr(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<void>;
  /** Calls `listener` with every message of `channel`; answers the unsubscribe. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The key prefix of a database: its name (the path's last part for SQLite). */
export function storeKeyPrefix(databaseUrl: string): string {
  const name = databaseUrl.startsWith('sqlite:')
    ? databaseUrl.slice('sqlite:'.length).split(/[\\/]/).pop()!
    : new URL(databaseUrl).pathname.slice(1);
  return `calendar:${name}:`;
}

function memoryStore(): SharedStore {
  const values = new Map<string, string>();
  const bus = new EventEmitter();
  return {
    kind: 'memory',
    keyPrefix: '',
    redis: null,
    up: () => true,
    ready: async () => true,
    get: async (key) => values.get(key) ?? null,
    incr: async (key) => {
      const next = Number(values.get(key) ?? 0) + 1;
      values.set(key, String(next));
      return next;
    },
    publish: async (channel, message) => {
      bus.emit(channel, message);
    },
    subscribe: async (channel, listener) => {
      bus.on(channel, listener);
      return async () => {
        bus.off(channel, listener);
      };
    },
    close: async () => {
      bus.removeAllListeners();
    },
  };
}

/**
 * Options of every connection: fail fast while down, reconnect with a capped back-off. The client
 * library is loaded here, when REDIS_URL is set: ~9 MB of RSS a server without Redis never uses.
 */
function connect(url: string): Redis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Redis: Client } = require('ioredis') as typeof import('ioredis');
  const client = new Client(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  // Errors are reported through `up()` (readiness, metrics); unhandled they would crash.
  client.on('error', () => {});
  return client;
}

function redisStore(url: string, keyPrefix: string): SharedStore {
  const client = connect(url);
  let subscriber: Redis | undefined;
  const listeners = new EventEmitter();
  return {
    kind: 'redis',
    keyPrefix,
    redis: client,
    up: () => client.status === 'ready',
    ready: (timeoutMs = 2_000) =>
      new Promise<boolean>((resolve) => {
        if (client.status === 'ready') return resolve(true);
        const done = (value: boolean) => {
          clearTimeout(timer);
          client.off('ready', onReady);
          resolve(value);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        client.on('ready', onReady);
      }),
    get: (key) => client.get(`${keyPrefix}${key}`),
    incr: (key) => client.incr(`${keyPrefix}${key}`),
    publish: async (channel, message) => {
      await client.publish(`${keyPrefix}${channel}`, message);
    },
    subscribe: async (channel, listener) => {
      if (!subscriber) {
        // A subscribed connection can do nothing else: one more, made on first use. Its
        // subscriptions are renewed by ioredis after a reconnect.
        subscriber = connect(url);
        subscriber.on('message', (name: string, message: string) => listeners.emit(name, message));
      }
      const name = `${keyPrefix}${channel}`;
      listeners.on(name, listener);
      await subscriber.subscribe(name);
      return async () => {
        listeners.off(name, listener);
        if (listeners.listenerCount(name) === 0) await subscriber?.unsubscribe(name);
      };
    },
    close: async () => {
      await Promise.allSettled([client.quit(), subscriber?.quit()]);
      client.disconnect();
      subscriber?.disconnect();
    },
  };
}

const stores = new Map<string, SharedStore>();

/**
 * The shared store of `config` (one per process and Redis/database pair, made on first use):
 * every part of the app that asks gets the same connection.
 */
export function sharedStore(config: Pick<Config, 'redisUrl' | 'databaseUrl'>): SharedStore {
  const prefix = storeKeyPrefix(config.databaseUrl);
  const id = `${config.redisUrl ?? 'memory'} ${prefix}`;
  let store = stores.get(id);
  if (!store) {
    store = config.redisUrl ? redisStore(config.redisUrl, prefix) : memoryStore();
    stores.set(id, store);
  }
  return store;
}

/** Closes every shared store of this process (shutdown, tests). */
export async function closeSharedStores(): Promise<void> {
  const all = [...stores.values()];
  stores.clear();
  await Promise.all(all.map((store) => store.close()));
}
