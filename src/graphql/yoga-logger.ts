import type { YogaLogger } from 'graphql-yoga';
import type { Logger } from '../http/logger';
import { redactDocument, redactValue } from '../http/redact';
import { requestLog } from '../http/request-info';

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Yoga's own log calls, as pino lines of the current request (with its request id). Whatever
 * Yoga passes is redacted first (src/http/redact.ts): objects lose the values of secret-named
 * keys (GraphQL parameters the variables feeding secret arguments too), texts the inline values
 * of secret arguments; errors go through the logger's error serialiser, which scrubs quoted
 * values.
 */
export function yogaLogger(logger: Logger): YogaLogger {
  const at =
    (level: Level) =>
    (...args: unknown[]): void => {
      const target = requestLog() ?? logger;
      const err = args.find((arg) => arg instanceof Error);
      const text = args
        .filter((arg) => !(arg instanceof Error))
        .map((arg) => (typeof arg === 'string' ? redactDocument(arg).text : describe(arg)))
        .join(' ');
      target[level](err ? { err } : {}, text || 'graphql-yoga');
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(redactValue(value)) ?? String(value);
  } catch {
    return String(value);
  }
}
