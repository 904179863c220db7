import type { RestError } from './errors';

/** Builders of the adapter's HTTP responses: JSON bodies, HEAD without body, list headers. */

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function toResponse(ResponseCtor: typeof Response, reply: Reply, head: boolean): Response {
  const text = reply.body === null ? null : JSON.stringify(reply.body);
  return new ResponseCtor(head ? null : text, {
    status: reply.status,
    headers: {
      'Content-Type': 'application/json; charset=UTF-8',
      'X-Content-Type-Options': 'nosniff',
      ...reply.headers,
    },
  });
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
