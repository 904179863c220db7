import { etagOf, matchesEtag } from '../http/etag';
import { noteRendered } from '../http/response-cache';
import type { RestError } from './errors';

/** Builders of the adapter's HTTP responses: JSON bodies, HEAD without body, list headers. */

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The HTTP response of a reply. A 200 to GET or HEAD carries an ETag of its body and
 * `Cache-Control: no-cache` (clients and caches revalidate); a request whose `If-None-Match`
 * names that ETag gets 304 without a body. Such a 200 is also noted for the response cache
 * (src/http/response-cache-plugin.ts), which answers the next identical anonymous request,
 * 304s included, without rendering.
 */
export function toResponse(
  ResponseCtor: typeof Response,
  reply: Reply,
  request: Request,
): Response {
  const method = request.method.toUpperCase();
  const head = method === 'HEAD';
  const text = reply.body === null ? null : JSON.stringify(reply.body);
  // X-Content-Type-Options comes with the other security headers (src/http/plugin.ts): set
  // here too, it went out twice.
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=UTF-8',
    ...reply.headers,
  };
  if (reply.status !== 200 || text === null || !(head || method === 'GET')) {
    return new ResponseCtor(head ? null : text, { status: reply.status, headers });
  }
  // Encoded once: the cache serves these very bytes.
  const body = Buffer.from(text);
  const etag = etagOf(body);
  headers.ETag = etag;
  headers['Cache-Control'] = 'no-cache';
  const response = matchesEtag(request.headers.get('if-none-match'), etag)
    ? new ResponseCtor(null, { status: 304, headers })
    : new ResponseCtor(head ? null : body, { status: 200, headers });
  // A copy: the Response may keep `headers` itself, and later hooks (CORS) write into it.
  noteRendered(response, { body, etag, headers: { ...headers } });
  return response;
}

export function errorReply(error: RestError, headers?: Record<string, string>): Reply {
  return { status: error.status, body: error.body, headers };
}

interface Page {
  total?: unknown;
  total_pages?: unknown;
  next_rest_url?: unknown;
  previous_rest_url?: unknown;
}

/**
 * Headers of every list: the reference's X-TEC-* and **[ours]** the same values as X-WP-*,
 * plus a `Link` header with the next/previous pages.
 */
export function listHeaders(page: Page): Record<string, string> {
  const links: string[] = [];
  if (typeof page.next_rest_url === 'string') links.push(`<${page.next_rest_url}>; rel="next"`);
  if (typeof page.previous_rest_url === 'string') {
    links.push(`<${page.previous_rest_url}>; rel="prev"`);
  }
  return {
    'X-TEC-Total': String(page.total),
    'X-TEC-TotalPages': String(page.total_pages),
    'X-WP-Total': String(page.total),
    'X-WP-TotalPages': String(page.total_pages),
    ...(links.length ? { Link: links.join(', ') } : {}),
  };
}
