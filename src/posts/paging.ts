import type { Config } from '../config';
import {
  encodedQuery,
  flat,
  invalid,
  pageNotFound,
  readableQuery,
  restUrl,
  type ResourceName,
} from '../lib';

/** Pagination and the list envelope shared by every collection. */

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
}

function positive(name: string, value: number | null | undefined, fallback: number): number {
  if (value === null || value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw invalid(name, 'must be a positive integer');
  return value;
}

/** Validates page/per_page (≥ 1) and silently caps per_page. */
export function paging(
  config: Config,
  page: number | null | undefined,
  perPage: number | null | undefined,
): Paging {
  const p = positive('page', page, 1);
  const pp = Math.min(positive('per_page', perPage, config.perPageDefault), config.perPageMax);
  return { page: p, perPage: pp, offset: (p - 1) * pp };
}

export interface Envelope {
  rest_url: string;
  next_rest_url: string | null;
  previous_rest_url: string | null;
  total: number;
  total_pages: number;
}

/**
 * The envelope of one page. `query` is the effective query to echo, without page/per_page; the
 * next/previous links keep every filter. A page past the last (page > 1) is a 404.
 */
export function envelope(
  config: Config,
  resource: ResourceName,
  collection: string,
  paged: Paging,
  total: number,
  query: [string, string][],
  /** REST namespace of the links (the request's, see `AppContext.restNamespace`). */
  namespace?: string,
): Envelope {
  const totalPages = total === 0 ? 0 : Math.ceil(total / paged.perPage);
  if (paged.page > 1 && paged.page > totalPages) throw pageNotFound(resource);
  const base = `${restUrl(config, collection, namespace)}/`;
  const withPaging = (page: number | null): [string, string][] => [
    ...(page === null ? [] : ([['page', String(page)]] as [string, string][])),
    ['per_page', String(paged.perPage)],
    ...query,
  ];
  return {
    // Flat strings (`flat`, src/lib/urls.ts): the fast JSON serialiser takes no ropes.
    rest_url: flat(base, '?', readableQuery(withPaging(paged.page))),
    next_rest_url:
      paged.page < totalPages ? flat(base, '?', encodedQuery(withPaging(paged.page + 1))) : null,
    previous_rest_url:
      paged.page > 1
        ? flat(base, '?', encodedQuery(withPaging(paged.page - 1 === 1 ? null : paged.page - 1)))
        : null,
    total,
    total_pages: totalPages,
  };
}
