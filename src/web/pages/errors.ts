import { DomainError, type ErrorCode } from '../../lib';
import type { Page } from '../page';

/**
 * Error pages. Whatever a caller may not read — unknown, draft, pending, private or trashed —
 * is the same 404 as the API's single reads give it, so a page confirms nothing hidden.
 */

/** What a page shows of a failure: the domain's code and its message for the caller. */
export interface Failure {
  code: ErrorCode;
  message: string;
  retryAfter?: number;
}

const STATUS: Partial<Record<ErrorCode, number>> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  FORBIDDEN: 404,
  GONE: 404,
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

/**
 * The failure behind a thrown error, or null for a bug: a DomainError (maybe wrapped), or the
 * GraphQLError Yoga's context factory turns an authentication failure into (its
 * `extensions.code`: a wrong token is 401, blocked guessing 429).
 */
export function failureOf(thrown: unknown): Failure | null {
  for (let e = thrown, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (e instanceof DomainError) {
      const retry = Number(e.data.retryAfter);
      return { code: e.code, message: e.message, ...(retry > 0 ? { retryAfter: retry } : {}) };
    }
    const code = (e as { extensions?: { code?: unknown } }).extensions?.code;
    if (typeof code === 'string' && code in STATUS) {
      return { code: code as ErrorCode, message: (e as Error).message };
    }
    e = (e as { originalError?: unknown }).originalError;
  }
  return null;
}

/** `canonical`: the address asked for. */
export function errorPage(canonical: string, failure: Failure | null): Page {
  const status = failure ? (STATUS[failure.code] ?? 500) : 500;
  // Only messages meant for callers: parameter problems name the parameter and why.
  const detail = failure && status !== 404 && status !== 500 ? failure.message : '';
  const heading = HEADING[status] ?? 'Error';
  return {
    status,
    template: 'error',
    data: { status, heading, detail, notFound: status === 404 },
    meta: { title: heading, description: heading, canonical, ogType: 'website', noindex: true },
  };
}
