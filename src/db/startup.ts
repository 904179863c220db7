import { describeDbError, isTransientStartupError } from './errors';
import { redactedUrl, type Db } from './knex';
import { migrateLatest } from './migrate';

/**
 * Start-up against a database that may not be up yet (containers starting together, a MySQL
 * restart): connect-and-migrate is retried with growing pauses while the database is
 * unreachable, for at most DB_STARTUP_TIMEOUT_MS; other failures (wrong password, unknown
 * database, a bad migration) stop at once. Either way the error says what to check.
 */

export class StartupError extends Error {}

export interface StartupOptions {
  databaseUrl: string;
  /** Total time allowed for retries; 0: one attempt. */
  timeoutMs: number;
  /** Told before each pause: one log line per failed attempt. */
  onRetry?: (info: { attempt: number; retryInMs: number; reason: string }) => void;
  /** First pause (doubling up to `maxDelayMs`). */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Applies pending migrations once the database answers; returns the names applied. */
export async function migrateWhenReachable(db: Db, options: StartupOptions): Promise<string[]> {
  const started = Date.now();
  const where = redactedUrl(options.databaseUrl);
  let delay = options.firstDelayMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateLatest(db);
    } catch (error) {
      const reason = describeDbError(error);
      if (!isTransientStartupError(error)) {
        throw new StartupError(`Cannot start: the database at ${where} failed: ${reason}.`);
      }
      const elapsed = Date.now() - started;
      if (elapsed + delay > options.timeoutMs) {
        const seconds = (elapsed / 1000).toFixed(1);
        throw new StartupError(
          `Cannot reach the database at ${where} after ${attempt} attempt(s) in ${seconds} s ` +
            `(DB_STARTUP_TIMEOUT_MS=${options.timeoutMs}): ${reason}. ` +
            'Check DATABASE_URL and that the database server is running and reachable.',
        );
      }
      options.onRetry?.({ attempt, retryInMs: delay, reason });
      await sleep(delay);
      delay = Math.min(delay * 2, options.maxDelayMs ?? 5_000);
    }
  }
}
