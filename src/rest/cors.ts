import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';

/**
 * Response headers browsers may read: the list totals and pagination links, the ETag to
 * revalidate with and the Allow of REST answers (sent by every route that has them).
 */
const EXPOSED_HEADERS = [
  'X-TEC-Total',
  'X-TEC-TotalPages',
  'X-WP-Total',
  'X-WP-TotalPages',
  'Link',
  'ETag',
  'Allow',
].join(', ');

const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
/** Credentials travel in `Authorization`; `If-None-Match` revalidates with an exposed ETag. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id, If-None-Match';
const MAX_AGE = '600';

/**
 * The server's CORS policy, for every route (REST, /graphql, SOFA, feeds), preflights included
 * (docs/security.md "CORS"). Off without CORS_ORIGINS: no CORS header at all. With it, an
 * allowed origin (or any origin, for `*`) is echoed in `Access-Control-Allow-Origin`; any
 * other origin gets no `Access-Control-*` header at all — never `null`, never `*` — and every
 * response says `Vary: Origin`, since its headers depend on it. No cookie credentials are
 * allowed (`Access-Control-Allow-Credentials` is never sent). A preflight (`OPTIONS` with
 * `Origin` and `Access-Control-Request-Method`) is answered here with 204, whatever the path.
 *
 * Yoga's own CORS plugin answers an unknown origin with `Access-Control-Allow-Origin: null` and
 * drops `Vary` when one origin is configured, so the server turns it off (`cors: false`) and
 * uses this plugin, registered right after the HTTP layer.
 */
export function useCors(config: Config): Plugin {
  if (config.corsOrigins.length === 0) return {};
  const anyOrigin = config.corsOrigins.includes('*');
  const origins = new Set(config.corsOrigins.map((origin) => origin.toLowerCase()));
  const allowed = (origin: string | null): origin is string =>
    origin !== null && (anyOrigin || origins.has(origin.toLowerCase()));
  return {
    onRequest({ request, fetchAPI, endResponse }) {
      if (!isPreflight(request)) return;
      // Safari waits for a body on a 204 without Content-Length.
      endResponse(new fetchAPI.Response(null, { status: 204, headers: { 'Content-Length': '0' } }));
    },
    onResponse({ request, response }) {
      const headers = response.headers;
      addVary(headers, 'Origin');
      const origin = request.headers.get('origin');
      if (!allowed(origin)) return;
      headers.set('Access-Control-Allow-Origin', origin);
      headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      if (isPreflight(request)) {
        headers.set('Access-Control-Allow-Methods', METHODS);
        headers.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        headers.set('Access-Control-Max-Age', MAX_AGE);
      }
    },
  };
}

function isPreflight(request: Request): boolean {
  return (
    request.method.toUpperCase() === 'OPTIONS' &&
    request.headers.has('origin') &&
    request.headers.has('access-control-request-method')
  );
}

/** Adds `name` to the response's `Vary` unless it is there (or `*`). */
function addVary(headers: Headers, name: string): void {
  const vary = headers.get('vary');
  if (vary === null || vary.trim() === '') {
    headers.set('Vary', name);
    return;
  }
  const names = vary.split(',').map((part) => part.trim().toLowerCase());
  if (!names.includes('*') && !names.includes(name.toLowerCase())) {
    headers.set('Vary', `${vary}, ${name}`);
  }
}
