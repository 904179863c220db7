/**
 * What a database error means for the request that met it — the one place driver errors
 * (mysql2, better-sqlite3, Knex's pool) are classified:
 *
 * - **unavailable**: the database cannot be reached or lost the connection (refused, reset,
 *   timed out, server shutting down, too many connections, pool acquire timeout, SQLite busy
 *   past its timeout, lock waits that outlasted the retries). Requests answer 503
 *   `SERVICE_UNAVAILABLE`; a lost connection is not retried in-request, because one lost during
 *   COMMIT leaves the outcome unknown.
 * - **retryable**: the transaction lost a race and was rolled back (deadlock, lock wait timeout,
 *   a unique index that fired between a check and an insert). `transact`
 *   (src/db/retry.ts) runs the whole transaction again on a fresh snapshot.
 */

interface DriverError {
  code?: unknown;
  errno?: unknown;
  name?: unknown;
  message?: unknown;
  fatal?: unknown;
  errors?: unknown;
  cause?: unknown;
  originalError?: unknown;
}

/** The error and what it wraps (GraphQL `originalError`, `cause`, AggregateError members). */
function chain(error: unknown, depth = 0): DriverError[] {
  if (!error || typeof error !== 'object' || depth > 4) return [];
  const e = error as DriverError;
  const out: DriverError[] = [e];
  out.push(...chain(e.originalError, depth + 1), ...chain(e.cause, depth + 1));
  if (Array.isArray(e.errors)) for (const inner of e.errors) out.push(...chain(inner, depth + 1));
  return out;
}

const UNAVAILABLE_CODES = new Set([
  // The network (node:net, dns).
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  // mysql2's protocol layer.
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'PROTOCOL_ENQUEUE_HANDSHAKE_TWICE',
  // The server: too many connections, shutting down, connection killed, idle timeout.
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  // SQLite: another process held the write lock past busy_timeout.
  'SQLITE_BUSY',
  'SQLITE_BUSY_TIMEOUT',
  'SQLITE_LOCKED',
]);

/**
 * Server error numbers meaning the same, for drivers that report only `errno`; deadlocks or
 * lock wait timeouts that outlasted every retry of `transact` (a database too busy to answer);
 * and a Galera node outside its cluster's primary component or still joining it (1047 "WSREP
 * has not yet prepared node for application use"): another node can serve.
 */
const UNAVAILABLE_ERRNOS = new Set([
  1040, 1053, 1927, 2002, 2003, 2006, 2013, 4031, 1205, 1213, 1047,
]);

/**
 * mysql2 reports use of a connection that already died with a bare message; and a network error
 * copied by some layer on its way up (losing `code`) still says what it was in its message.
 */
const UNAVAILABLE_MESSAGE =
  /Can't add new command when connection is in closed state|Connection lost: The server closed the connection|\b(connect|read|write) (ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)\b|\bgetaddrinfo (ENOTFOUND|EAI_AGAIN)\b/;

/**
 * Deadlock, lock wait timeout, MariaDB's "record has changed since last read". Galera reports a
 * certification failure (another node committed a conflicting write first) and a transaction
 * aborted by a replicated one as deadlocks (1213): run again, they see the other write.
 */
const RETRYABLE_ERRNOS = new Set([1213, 1205, 1020]);
const DUPLICATE_CODES = new Set([
  'ER_DUP_ENTRY',
  'SQLITE_CONSTRAINT_UNIQUE',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
]);

/** Is this the database being unreachable (or gone mid-request), rather than a bug? */
export function isDatabaseUnavailable(error: unknown): boolean {
  return chain(error).some(
    (e) =>
      (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) ||
      (typeof e.errno === 'number' && UNAVAILABLE_ERRNOS.has(e.errno)) ||
      e.name === 'KnexTimeoutError' ||
      (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)),
  );
}

/** A unique index refused a row (MySQL ER_DUP_ENTRY 1062, SQLITE_CONSTRAINT_UNIQUE). */
export function isDuplicateKey(error: unknown): boolean {
  return chain(error).some(
    (e) => (typeof e.code === 'string' && DUPLICATE_CODES.has(e.code)) || e.errno === 1062,
  );
}

/** Did the transaction lose a race, so that running it again may succeed? */
export function isRetryable(error: unknown): boolean {
  if (isDuplicateKey(error)) return true;
  return chain(error).some(
    (e) =>
      (typeof e.errno === 'number' && RETRYABLE_ERRNOS.has(e.errno)) ||
      e.code === 'SQLITE_BUSY_SNAPSHOT',
  );
}

/**
 * May retrying start-up help? Unreachable yes; wrong password, unknown database or a bad
 * migration no: those fail at once with their own message.
 */
export function isTransientStartupError(error: unknown): boolean {
  return isDatabaseUnavailable(error) && !chain(error).some((e) => e.errno === 1045);
}

/** A one-line description of a driver error, without SQL (for logs and start-up messages). */
export function describeDbError(error: unknown): string {
  for (const e of chain(error)) {
    if (typeof e.message === 'string' && e.message !== '') {
      // Knex prefixes the failed statement ("select … - reason"): keep the reason.
      const message = e.message.split('\n')[0]!;
      const reason = message.includes(' - ')
        ? message.slice(message.lastIndexOf(' - ') + 3)
        : message;
      return typeof e.code === 'string' && !reason.includes(e.code)
        ? `${reason} (${e.code})`
        : reason;
    }
    if (typeof e.code === 'string') return e.code;
  }
  return String(error);
}
