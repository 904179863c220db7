import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config';

export type { Logger };

/**
 * Structured JSON logs (pino), one object per line on standard output:
 * `{"level":"info","time":"…","request_id":"…","msg":"request","method":"GET",…}`.
 *
 * What never reaches a log line: the `Authorization` header (headers are not logged at all),
 * request bodies, the values of secret-looking query parameters (`password`, `token`, …) and
 * the values bound into SQL statements (database errors quote them; see `scrub`). A logged
 * error keeps its class, code, message and stack so a 500 can be traced by its request id.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: serializeError },
    redact: {
      paths: [
        'authorization',
        'password',
        'token',
        'secret',
        '*.authorization',
        '*.password',
        '*.token',
        '*.secret',
        'headers.*',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Query parameters whose values are never logged. */
const SECRET_PARAM = /pass|token|secret|key|auth|session|signature/i;

/** `path?query` for logs: values of secret-looking parameters replaced, length bounded. */
export function loggableTarget(url: URL): string {
  const pairs: string[] = [];
  for (const [key, value] of url.searchParams) {
    const shown = SECRET_PARAM.test(key) ? '[redacted]' : value;
    pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(shown)}`);
  }
  const target = pairs.length ? `${url.pathname}?${pairs.join('&')}` : url.pathname;
  return target.length > 2048 ? `${target.slice(0, 2048)}…` : target;
}

/** Quoted literals (`'…'`, `"…"`) of SQL text and driver messages: where bound values appear. */
const QUOTED = /'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"/g;

/**
 * Knex prefixes database errors with the statement, values inlined
 * (`insert into \`events\` (…) values ('Jazz', 'the-event-password') - …`), and drivers quote
 * values in their own messages (`Duplicate entry 'x' for key …`): every quoted literal becomes `?`.
 */
export function scrub(text: string): string {
  return text.replace(QUOTED, '?');
}

interface ErrorLog {
  type: string;
  message: string;
  code?: string;
  stack?: string;
}

function serializeError(error: unknown): ErrorLog {
  if (!(error instanceof Error)) return { type: typeof error, message: scrub(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.constructor?.name ?? 'Error',
    message: scrub(error.message),
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.stack ? { stack: scrub(error.stack) } : {}),
  };
}
