import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config';
import { isSecretName, REDACTED, redactDocument, redactVariables } from './redact';

export type { Logger };

/**
 * Structured JSON logs (pino), one object per line on standard output:
 * `{"level":"info","time":"…","request_id":"…","msg":"request","method":"GET",…}`.
 *
 * What never reaches a log line: the `Authorization` header (headers are not logged at all, and
 * fields named like a secret or a header are redacted if anything passes them), request bodies
 * (so the variables of GraphQL POSTs), the values of secret-looking query parameters
 * (`password`, `token`, …), secret GraphQL arguments and variables of GET requests
 * (`loggableTarget`) and the values bound into SQL statements (database errors quote them; see
 * `scrub`). A logged error keeps its class, code, message and stack so a 500 can be traced by
 * its request id.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: () => isoTimestamp(),
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
        '*.headers.*',
        'variables',
        '*.variables',
      ],
      censor: '[redacted]',
    },
  };
  return pino(options, destination ?? standardOutput());
}

let second = Number.NaN;
let secondText = '';

/**
 * pino's `isoTime` (`,"time":"2026-11-26T07:33:12.345Z"`) with the text up to the second made
 * once a second: formatting a Date was ~1 µs of a line's ~2.8 µs.
 */
export function isoTimestamp(now: number = Date.now()): string {
  const whole = Math.floor(now / 1000);
  if (whole !== second) {
    second = whole;
    secondText = `,"time":"${new Date(whole * 1000).toISOString().slice(0, 20)}`;
  }
  const ms = now - whole * 1000;
  return `${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}

/** How long a line may wait in the buffer when fewer than `minLength` bytes wait. */
const FLUSH_INTERVAL_MS = 1000;

let stdout: pino.DestinationStream | undefined;

/**
 * Standard output, one destination per process, written asynchronously in batches of at least
 * 4 KB (about 16 access lines): a synchronous write per line was ~3 % of a request's CPU, and an
 * asynchronous one still a thread-pool round trip per request. A timer writes what waits at least
 * once a second, so a quiet server's log is at most that far behind. pino flushes this
 * destination synchronously on process exit, so no line is lost on a normal shutdown
 * (process.exit after SIGTERM included).
 */
function standardOutput(): pino.DestinationStream {
  if (!stdout) {
    const sonic = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    // Armed by a line, so that a process that logs nothing keeps no timer.
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      try {
        sonic.flush();
      } catch {
        // Ended at exit: pino wrote what was left.
      }
    };
    stdout = {
      write(line: string) {
        timer ??= setTimeout(flush, FLUSH_INTERVAL_MS).unref();
        return sonic.write(line);
      },
    };
  }
  return stdout;
}

/**
 * `path?query` for logs, length bounded, with secrets replaced (src/http/redact.ts): the values
 * of secret-looking parameters (`password`, `token` …) and, for GraphQL GET requests, the
 * secret arguments written in `query` and the variables that feed them or bear such a name.
 */
const NONE: ReadonlySet<string> = new Set();

export function loggableTarget(url: URL): string {
  const params = url.searchParams;
  const document = params.has('query') ? redactDocument(params.get('query')!) : null;
  const pairs: string[] = [];
  for (const [key, value] of params) {
    let shown = value;
    if (isSecretName(key)) shown = REDACTED;
    else if (key === 'query') shown = redactDocument(value).text;
    else if (key === 'variables') shown = redactVariables(value, document?.secretVariables ?? NONE);
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
