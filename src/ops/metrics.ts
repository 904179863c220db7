import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type RegistryContentType,
} from 'prom-client';
import type { Db } from '../db';
import type { SharedStore } from '../http/shared-store';

/**
 * Prometheus metrics of one app (docs/operations.md "Metrics"): request counts and latencies by
 * route pattern, the database pool, and the process (prom-client's default metrics: CPU, memory,
 * heap, event-loop lag, GC, handles). Each app has a registry of its own (tests build many apps in
 * one process); the process metrics live in one registry per process, merged in at scrape time.
 */

/** Latency buckets in seconds: from a cached read to a request near REQUEST_TIMEOUT_MS. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

let processRegistry: Registry | undefined;

/**
 * prom-client's process and Node.js metrics, collected once per process from the first scrape on
 * (CPU and memory figures are totals since the process started anyway; GC and event-loop
 * histograms count from then). Lazy, so that the many apps of a test run do not each start
 * observers.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** What a knex pool (tarn) tells about itself; absent before the first query or after destroy. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

function poolOf(db: Db): TarnPool | undefined {
  const pool = (db.client as { pool?: Partial<TarnPool> }).pool;
  return pool && typeof pool.numUsed === 'function' ? (pool as TarnPool) : undefined;
}

export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly durations: Histogram<'route' | 'method'>;

  constructor(db: Db, store?: Pick<SharedStore, 'kind' | 'up'>) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to its response headers, by route pattern and method.',
      labelNames: ['route', 'method'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const pool = (name: string, help: string, read: (p: TarnPool) => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const p = poolOf(db);
          this.set(p ? read(p) : 0);
        },
      });
    };
    pool('db_pool_used_connections', 'Database connections lent to a query.', (p) => p.numUsed());
    pool('db_pool_free_connections', 'Idle database connections in the pool.', (p) => p.numFree());
    pool(
      'db_pool_pending_acquires',
      'Queries waiting for a pooled connection (sustained > 0: DB_POOL_MAX is too low or the database is slow).',
      (p) => p.numPendingAcquires(),
    );
    pool('db_pool_pending_creates', 'Database connections being opened.', (p) =>
      p.numPendingCreates(),
    );
    pool(
      'db_pool_max_connections',
      'Ceiling of the pool (DB_POOL_MAX; 1 for SQLite).',
      (p) => p.max,
    );
    if (store?.kind === 'redis') {
      new Gauge({
        name: 'shared_store_up',
        help: 'Whether Redis (REDIS_URL) answers: 1 up, 0 down (throttles then count per instance).',
        registers,
        collect() {
          this.set(store.up() ? 1 : 0);
        },
      });
    }
  }

  /**
   * The counter and histogram of one label set. prom-client hashes the labels at every call
   * otherwise; the sets are few (route patterns × methods × statuses), so each is bound once.
   */
  private readonly bound = new Map<string, { count(): void; time(seconds: number): void }>();

  /** Records one answered request. `route` must be a pattern, never a raw path. */
  observe(route: string, method: string, status: number, seconds: number): void {
    const m = method.toUpperCase();
    const methodLabel = METHODS.has(m) ? m : 'OTHER';
    const key = `${route}\n${methodLabel}\n${status}`;
    let series = this.bound.get(key);
    if (!series) {
      const counter = this.requests.labels({ route, method: methodLabel, status: String(status) });
      const histogram = this.durations.labels({ route, method: methodLabel });
      series = { count: () => counter.inc(), time: (s) => histogram.observe(s) };
      this.bound.set(key, series);
    }
    series.count();
    series.time(seconds);
  }

  /** The exposition text of this app's and the process's metrics. */
  async scrape(): Promise<{ contentType: RegistryContentType; body: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}
