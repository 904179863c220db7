import { createServer, type ServerResponse } from 'node:http';
import { loadConfig, type Config } from '../../../src/config/config';
import { NAMESPACE } from '../../../src/lib/urls';
import { openRawDb } from './raw-db';
import { list, positiveInt, problem, single, type Reply } from './raw-queries';

/**
 * The raw limit: node:http and the database driver with hand-written SQL, answering the event
 * list (default window; `page`, `per_page`, one `categories` id, one `search` word) and single
 * events by id or slug with the same JSON as the REST adapter. A list costs 5 queries (count,
 * page, venues, organizers, terms; +1 term lookup with `categories`), a single 4. Configured by
 * the service's own environment variables (DATABASE_URL, PORT, SITE_URL, API_ROOT…).
 *
 *   node --import tsx test/bench/raw/raw-server.ts
 */

function send(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Content-Type-Options': 'nosniff',
    ...reply.headers,
  });
  res.end(JSON.stringify(reply.body));
}

export function startRawServer(config: Config): { close(): Promise<void> } {
  const db = openRawDb(config.databaseUrl, config.dbPoolMax);
  const base = `${config.apiRoot}/${NAMESPACE}/events`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://raw');
    const path = url.pathname.replace(/\/$/, '');
    let pending: Promise<Reply> | null = null;
    if (req.method === 'GET' && path === base) {
      const page = positiveInt(url.searchParams.get('page'), 1);
      const perPage = positiveInt(url.searchParams.get('per_page'), config.perPageDefault);
      const category = url.searchParams.get('categories');
      const search = url.searchParams.get('search');
      const badCategory = category !== null && !/^\d+$/.test(category);
      if (page === null || perPage === null || badCategory || search?.trim() === '') {
        pending = Promise.resolve(problem(400, 'rest_invalid_param', 'Invalid parameter(s).'));
      } else {
        pending = list(db, config, {
          page,
          perPage: Math.min(perPage, config.perPageMax),
          category: category === null ? null : Number(category),
          search: search === null ? null : search.trim(),
        });
      }
    } else if (req.method === 'GET' && path.startsWith(`${base}/`)) {
      const rest = path.slice(base.length + 1);
      if (/^\d+$/.test(rest)) pending = single(db, config, 'id', rest);
      else if (rest.startsWith('by-slug/')) {
        pending = single(db, config, 'slug', decodeURIComponent(rest.slice(8)));
      }
    }
    if (!pending) return send(res, problem(404, 'rest_no_route', 'No route was found.'));
    pending.then(
      (reply) => send(res, reply),
      (error: unknown) => {
        console.error(error);
        send(res, problem(500, 'rest_internal_error', 'Internal error.'));
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(config.port, config.host);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => void db.close().then(resolve));
        server.closeAllConnections();
      }),
  };
}

if (require.main === module) {
  const raw = startRawServer(loadConfig());
  const stop = () => void raw.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
