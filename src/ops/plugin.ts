import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { dialectOf, type Db } from '../db';
import { requestInfo } from '../http/request-info';
import { sharedStore } from '../http/shared-store';
import { AppMetrics } from './metrics';
import { ReadinessCheck, type ReadinessOptions } from './readiness';
import { routeLabeller } from './route-label';

/**
 * The operators' endpoints, outside the REST namespace (docs/operations.md):
 *
 * - `GET /healthz`: the process is up and serving — 200 `{"status":"ok"}`, no database touched
 *   (a liveness probe that failed on a database outage would restart every instance at once);
 * - `GET /readyz`: 200 `{"status":"ready"}` when the database answers and no migration is
 *   pending, else 503 `{"status":"not_ready","reason":…}` (take the instance out of rotation);
 *   with `REDIS_URL`, `"redis":"up"|"down"` — Redis down keeps the instance ready (it serves on,
 *   throttling per instance), so a Redis outage never empties a load balancer;
 *
 * both name the instance that answered in `X-Instance` (host name, process id, cluster worker),
 * and `/readyz` the database server its pool reached in `X-Database-Node` (MySQL: `@@hostname`
 * and `@@port`) — headers, so the bodies probes compare stay as they were;
 * - `GET /metrics`: Prometheus text; behind `Authorization: Bearer $METRICS_TOKEN` when set.
 *
 * and the recording of every answered request in the metrics (its `onResponse` sees the final
 * status, after the HTTP layer). Registered right after the HTTP layer in src/http/server.ts.
 */

const OPS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

export interface OpsOptions {
  config: Config;
  db: Db;
  graphqlEndpoint: string;
  /** Fixed paths served by other plugins (the web page), kept as their own `route` label. */
  otherPaths?: Iterable<string>;
  readiness?: ReadinessOptions;
}

function json(ResponseCtor: typeof Response, status: number, body: unknown, head: boolean) {
  return new ResponseCtor(head ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** Constant-time comparison of a presented bearer token with the configured one. */
function bearerMatches(header: string | null, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

export function useOps(options: OpsOptions): Plugin {
  const { config, db } = options;
  const store = sharedStore(config);
  const metrics = new AppMetrics(db, store);
  const readiness = new ReadinessCheck(db, {
    dialect: dialectOf(config.databaseUrl),
    ...options.readiness,
  });
  const instance = `${hostname()} pid ${process.pid}${
    cluster.isWorker && cluster.worker ? ` worker ${cluster.worker.id}` : ''
  }`;
  const redis = () => (store.kind === 'redis' ? { redis: store.up() ? 'up' : 'down' } : {});
  const label = routeLabeller(config, options.graphqlEndpoint, [
    ...OPS_PATHS,
    ...(options.otherPaths ?? []),
  ]);

  const named = (response: Response): Response => {
    response.headers.set('X-Instance', instance);
    return response;
  };

  async function answer(pathname: string, request: Request, R: typeof Response) {
    const head = request.method === 'HEAD';
    switch (pathname) {
      case '/healthz':
        return named(json(R, 200, { status: 'ok' }, head));
      case '/readyz': {
        const state = await readiness.check();
        if (!state.ready) {
          const body = { status: 'not_ready', reason: state.reason, pending: state.pending };
          return named(json(R, 503, { ...body, ...redis() }, head));
        }
        const response = named(json(R, 200, { status: 'ready', ...redis() }, head));
        if (state.database) {
          response.headers.set('X-Database-Node', `${state.database.host}:${state.database.port}`);
        }
        return response;
      }
      case '/metrics': {
        if (
          config.metricsToken &&
          !bearerMatches(request.headers.get('authorization'), config.metricsToken)
        ) {
          const response = json(
            R,
            401,
            {
              code: 'metrics_unauthorized',
              message: 'Send Authorization: Bearer <METRICS_TOKEN>.',
            },
            head,
          );
          response.headers.set('WWW-Authenticate', 'Bearer realm="metrics"');
          return response;
        }
        const { contentType, body } = await metrics.scrape();
        return new R(head ? null : body, {
          status: 200,
          headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' },
        });
      }
      default:
        return undefined;
    }
  }

  const served = new Set<string>(OPS_PATHS);
  return {
    onRequest({ request, url, fetchAPI, endResponse }) {
      // Synchronous for every other request: no extra await on the hot path.
      if (!served.has(url.pathname)) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      // The access log (src/http/) names the route.
      requestInfo(request).route = url.pathname;
      return answer(url.pathname, request, fetchAPI.Response).then((response) => {
        if (response) endResponse(response);
      });
    },
    onResponse({ request, response }) {
      const info = requestInfo(request);
      // The URL as the HTTP layer parsed it on arrival (src/http/plugin.ts).
      const pathname = (info.url ?? new URL(request.url, 'http://localhost')).pathname;
      const seconds = (performance.now() - info.start) / 1000;
      metrics.observe(label(pathname, info.route), request.method, response.status, seconds);
    },
  };
}
