import type { Knex } from 'knex';
import { isRetryable } from './errors';
import type { Db } from './knex';
import { bumpListGeneration } from './list-counts';
import { lockNameKeys, nameLockKey } from './name-locks';
import type { Queryable } from './queryable';
import { beginTransaction } from './transaction';

/**
 * The one way services open a write transaction. Concurrency rules (docs/operations.md
 * "Concurrent writes"):
 *
 * - A write is one transaction; a failed write rolls back whole.
 * - Updates and deletes lock the record they change first (`SELECT … FOR UPDATE`; SQLite has a
 *   single writer), then write only the columns the request sent: last writer wins per field,
 *   and no acknowledged change is lost.
 * - Names a write may create a record by (inline venues/organizers, terms) are locked before
 *   anything is read (`names`), so the de-duplicating lookup sees every committed record of
 *   that name — at MySQL's REPEATABLE READ a transaction's snapshot starts at its first plain
 *   read, which therefore must come after these locks.
 * - Names a unique index already guards (the title or slug a new slug is made from:
 *   `retryNames`) are locked only from the second run on: the first run of a write costs no
 *   lock statement, and writes that did race on one slug (the index fired) then take their
 *   turns on its name instead of colliding again.
 * - A transaction that loses a race — deadlock, lock wait timeout, or a unique index (slugs)
 *   firing between the check and the insert — is rolled back by the database and run again
 *   from the start on a fresh snapshot, a few times with a short random pause.
 * - On Galera the race is lost at commit instead: row locks hold on one node only, and a
 *   transaction whose write set meets one committed on another node since its snapshot fails
 *   certification with the same deadlock error. Run again, it sees the winner's rows (or fails
 *   certification again until its node has applied them). Nothing here is session state Galera
 *   does not replicate: no GET_LOCK, no LOCK TABLES, no temporary tables; correctness rests on
 *   rows every write changes (name locks, unique indexes) — docs/operations.md "Running on Galera".
 */

export interface NameLock {
  /** What the name names: `venues`, `organizers`, `terms:category` … */
  scope: string;
  name: string;
}

export interface TransactOptions {
  /** Names to lock before the work reads anything. Blank names are skipped. */
  names?: readonly NameLock[];
  /** Names to lock as `names`, but only when a run is repeated (see above). */
  retryNames?: readonly NameLock[];
  /** Runs in all before the last error is thrown (default 8). */
  attempts?: number;
}

const DEFAULT_ATTEMPTS = 8;
/**
 * The longest pause between runs. Pauses grow from 20 ms; a cluster's hot rows (term counts,
 * the write generation) need the longer ones when several nodes write at once.
 */
const MAX_PAUSE_MS = 500;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type Work<T> = (trx: Queryable) => Promise<T>;

/** Runs `work` in a transaction, again from the start when it lost a race (see above). */
export function transact<T>(db: Db, work: Work<T>): Promise<T>;
export function transact<T>(db: Db, options: TransactOptions, work: Work<T>): Promise<T>;
export async function transact<T>(
  db: Db,
  optionsOrWork: TransactOptions | Work<T>,
  maybeWork?: Work<T>,
): Promise<T> {
  const [options, work] =
    typeof optionsOrWork === 'function' ? [{}, optionsOrWork] : [optionsOrWork, maybeWork!];
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  const first = lockKeys(options.names);
  // The retry's keys (a hash of each name) only when a run is repeated: seldom.
  let again: string[] | undefined;
  for (let attempt = 1; ; attempt++) {
    const keys = attempt === 1 ? first : (again ??= [...first, ...lockKeys(options.retryNames)]);
    try {
      return await once(db, keys, work);
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      // Random, growing pauses (full jitter, bounded) keep the racers from colliding again in step.
      await sleep(Math.random() * Math.min(MAX_PAUSE_MS, 10 * 2 ** attempt));
    }
  }
}

/** One run: in a transaction of its own, or nested in the one `db` is (Knex's savepoint). */
async function once<T>(db: Db, keys: readonly string[], work: Work<T>): Promise<T> {
  if ((db as Knex.Transaction).isTransaction) {
    return db.transaction((trx) => unitOfWork(trx, keys, work));
  }
  const { trx, commit, rollback } = await beginTransaction(db);
  try {
    const result = await unitOfWork(trx, keys, work);
    await commit();
    return result;
  } catch (error) {
    await rollback(error);
    throw error;
  }
}

async function unitOfWork<T>(trx: Queryable, keys: readonly string[], work: Work<T>): Promise<T> {
  await lockNameKeys(trx, keys);
  const result = await work(trx);
  // Last, so the counter's row is locked only until the commit (list-counts.ts).
  await bumpListGeneration(trx);
  return result;
}

function lockKeys(names: readonly NameLock[] | undefined): string[] {
  return (names ?? [])
    .filter((lock) => lock.name.trim() !== '')
    .map((lock) => nameLockKey(lock.scope, lock.name.trim()));
}
