import { transact, type Db, type Dialect, type Queryable } from '../../db';
import { InvalidParamError } from '../../lib';

/** How bulk writes are cut into batches, run, and how their failures are reported. */

export interface BulkOptions {
  /**
   * Records per transaction (default 1,000 on MySQL, 5,000 on SQLite). A failing batch rolls
   * back entirely.
   */
  batchSize?: number;
  /** Called after each committed batch with the records done so far. */
  onProgress?: (done: number, total: number | null) => void;
  /** Number of records, when `records` is a generator (progress only). */
  total?: number;
  /** Author of records that name none; default: the built-in administrator. */
  authorId?: number;
  /** Clock for publication/modification stamps (tests pin it). */
  now?: Date;
}

/** A record was rejected, or the batch holding it failed; `index` counts from 0. */
export class BulkImportError extends Error {
  constructor(
    readonly index: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BulkImportError';
  }
}

/** Validation errors of one record, named by its position in the import. */
export function recordError(index: number, error: unknown): BulkImportError {
  if (error instanceof BulkImportError) return error;
  const detail =
    error instanceof InvalidParamError
      ? Object.entries(error.params)
          .map(([name, reason]) => `${name} ${reason}`)
          .join('; ')
      : error instanceof Error
        ? error.message
        : String(error);
  return new BulkImportError(index, `record ${index}: ${detail}`, { cause: error });
}

/** Groups any (async) iterable into arrays of `size`, so generators of millions stream. */
export async function* batches<T>(
  records: Iterable<T> | AsyncIterable<T>,
  size: number,
): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const record of records) {
    batch.push(record);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * Runs the batches of an import: `prepare` (validation and columns: CPU only) of batch N+1 goes
 * on while batch N's transaction is in flight, in slices that yield to the event loop so that
 * transaction's round trips continue. On MySQL the database then works on the other core
 * meanwhile; on SQLite (a synchronous driver) nothing overlaps and nothing is lost. Batch N+2 is
 * not read before batch N is written, so an import of millions holds two batches at a time.
 * Writes stay sequential and in record order; the first failure (a write, or a record that
 * fails `prepare` after the writes before it settled) stops the import.
 */
export async function pipeline<R, P>(
  records: Iterable<R> | AsyncIterable<R>,
  size: number,
  prepare: (record: R) => P,
  write: (prepared: P[], offset: number) => Promise<void>,
): Promise<void> {
  // A holder, not a `let`: the callbacks below set it, which narrowing cannot see.
  const state: { failure: { error: unknown } | null } = { failure: null };
  let inflight: Promise<void> = Promise.resolve();
  let offset = 0;
  for await (const batch of batches(records, size)) {
    if (state.failure) break;
    const prepared: P[] = [];
    for (let i = 0; i < batch.length; i++) {
      if (i % PREPARE_SLICE === PREPARE_SLICE - 1) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      try {
        prepared.push(prepare(batch[i]!));
      } catch (error) {
        await inflight;
        // An earlier batch that failed meanwhile is the first failure: report that one.
        const earlier = state.failure as { error: unknown } | null;
        throw earlier ? earlier.error : recordError(offset + i, error);
      }
    }
    await inflight;
    if (state.failure) break;
    const at = offset;
    inflight = write(prepared, at).catch((error: unknown) => {
      state.failure ??= { error };
    });
    offset += batch.length;
  }
  await inflight;
  if (state.failure) throw state.failure.error;
}

/**
 * Records prepared between two turns of the event loop: small enough that the replies of the
 * batch in flight wait little (each reply lets the next statement go), large enough that the
 * turns cost nothing.
 */
const PREPARE_SLICE = 25;

/**
 * SQLite writes every page a transaction changed at its commit, and the batch's rows land all
 * over the indexes (slugs, dates): five times the rows share most of those pages, which made
 * an import of 100,000 events about a third faster. MySQL's commit costs little; its batches
 * stay short, as they hold locks on the records they link.
 */
const DEFAULT_BATCH: Record<Dialect, number> = { mysql: 1000, sqlite: 5000 };

/** The batch size of an import; `dialect` null: the smaller default (few records, say). */
export function batchSizeOf(options: BulkOptions, dialect: Dialect | null): number {
  const size = options.batchSize ?? DEFAULT_BATCH[dialect ?? 'mysql'];
  if (!Number.isInteger(size) || size < 1) throw new Error('batchSize must be a positive integer');
  return size;
}

/**
 * One transaction, through `transact`: a batch that lost a race (deadlock, Galera certification
 * failure, a slug a concurrent writer took first) is rolled back and run again whole, on a fresh
 * snapshot. That is safe because `fn` changes nothing outside its transaction: ids are allocated
 * and slugs assigned inside it (a rolled-back run leaves gaps in ids, never rows), and callers
 * record ids, touched terms and progress only from the value a committed run returned. A failure
 * that remains names the records it rolled back.
 */
export async function inBatch<T>(
  db: Db,
  offset: number,
  length: number,
  fn: (trx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await transact(db, fn);
  } catch (error) {
    if (error instanceof BulkImportError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const range = `${offset}–${offset + length - 1}`;
    throw new BulkImportError(offset, `records ${range} rolled back: ${reason}`, { cause: error });
  }
}
