import { DomainError } from '../../lib';
import type { Page } from '../page';

/**
 * Error pages. Whatever a caller may not read — unknown, draft, pending, private or trashed —
 * is the same 404 as the API's single reads give it, so a page confirms nothing hidden.
 */

const STATUS: Partial<Record<DomainError['code'], number>> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

const HEADING: Record<number, string> = {
  400: 'This address asks for something we cannot show',
  401: 'Your credentials were not accepted',
  404: 'Page not found',
  413: 'That was too much to send',
  429: 'Too many attempts',
  500: 'Something went wrong',
  503: 'The calendar is busy',
};

function statusOf(error: unknown): number {
  if (!(error instanceof DomainError)) return 500;
  if (['NOT_FOUND', 'FORBIDDEN', 'GONE'].includes(error.code)) return 404;
  return STATUS[error.code] ?? 500;
}

/** `canonical`: the address asked for. */
export function errorPage(canonical: string, error: unknown): Page {
  const status = statusOf(error);
  // Only messages meant for callers: parameter problems name the parameter and why.
  const detail =
    error instanceof DomainError && status !== 404 && status !== 500 ? error.message : '';
  return {
    status,
    template: 'error',
    data: { status, heading: HEADING[status] ?? 'Error', detail, notFound: status === 404 },
    meta: {
      title: HEADING[status] ?? 'Error',
      description: HEADING[status] ?? 'Error',
      canonical,
      ogType: 'website',
      noindex: true,
    },
  };
}
