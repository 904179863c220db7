import { DomainError } from '../lib';

/**
 * The request timeout (REQUEST_TIMEOUT_MS). A request not answered in time gets 503
 * `rest_request_timeout` (GraphQL: `extensions.code` `REQUEST_TIMEOUT`) with `Retry-After`; the
 * work already started is not cancelled, so a write that times out may still commit — the 503
 * says the outcome is unknown, and the client should read the record before retrying.
 */
export function requestTimeout(ms: number): DomainError {
  return new DomainError(
    'SERVICE_UNAVAILABLE',
    'request_timeout',
    `The request was not answered within ${ms} ms. A write may still have been applied: read the record before retrying.`,
    undefined,
    { retryAfter: 1 },
  );
}

/** `work`, or a rejection with `onTimeout()` after `ms` milliseconds (0: no limit). */
export function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  if (ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref?.();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
