import type { Config } from '../config';
import { deadlineError, RequestBudget } from '../context';
import type { DomainError } from '../lib';
import { requestInfo } from './request-info';

/**
 * The request timeout (REQUEST_TIMEOUT_MS). A request not answered in time gets 503
 * `rest_request_timeout` (GraphQL: `extensions.code` `REQUEST_TIMEOUT`) with `Retry-After`.
 *
 * Two things enforce it. `withTimeout` answers when its timer fires; but a timer only fires when
 * the event loop gets to it, and on SQLite a GraphQL operation's statements run synchronously one
 * after another with nothing but promise callbacks between them, so a long operation kept the loop
 * (and every other request) until it finished, and the timer never fired. So the request's
 * runtime budget (`requestBudget`, src/context/budget.ts) checks the same deadline before every
 * SQL statement: past it, no statement is sent, the operation fails fast and releases its pooled
 * connections, and the answer is the same 503. A write whose COMMIT went out before the deadline
 * stays applied: the 503 says the outcome is unknown, and the client should read the record
 * before retrying.
 */
export function requestTimeout(ms: number): DomainError {
  return deadlineError(ms);
}

/**
 * The runtime budget of a request: at most REQUEST_MAX_STATEMENTS statements, none sent after
 * REQUEST_TIMEOUT_MS from its arrival (none: no deadline).
 */
export function requestBudget(config: Config, request: Request): RequestBudget {
  const ms = config.requestTimeoutMs;
  const deadline = ms > 0 ? requestInfo(request).start + ms : Infinity;
  return new RequestBudget(config.requestMaxStatements, deadline, ms);
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
