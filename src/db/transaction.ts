import type { Knex } from 'knex';
import type { Db } from './knex';
import type { Queryable } from './queryable';

/**
 * A write transaction on one pooled connection, its statements built by Knex as everywhere else
 * (`transact` in retry.ts runs one; nothing else should).
 *
 * Knex's own `db.transaction()` builds a whole Knex instance for each transaction (a closure per
 * query-builder method, some 150, and its event wiring): about 15 KB per write that outlived
 * young-generation collections, and 9–22 % of an event create's server CPU (docs/performance.md,
 * "The 2026-11-26 afternoon commits"). Here the handle is a function over a per-transaction
 * client that inherits the shared one: its builders find the transaction's connection where they
 * would ask the pool for one, and once the transaction has ended they are refused instead of
 * reaching a connection the pool has lent to someone else. Statements are announced as Knex's
 * `query` event as before (the client's listeners are the shared client's), so the statement
 * budget and the query-count tests see them.
 */

/** What repositories may use of a transaction (a `Queryable`), and when it ended. */
export interface Transaction extends Queryable {
  readonly isTransaction: true;
  /** Settles when the transaction has ended: fulfilled once committed, rejected if rolled back. */
  readonly executionPromise: Promise<unknown>;
}

let transactions = 0;

const ENDED = 'Transaction query already complete: the transaction has ended.';

/** A transaction begun: its handle, and the two ways to end it (each ends it once). */
export interface OpenTransaction {
  readonly trx: Transaction;
  /** COMMIT; when the database refuses it, the transaction is rolled back and this throws. */
  commit(): Promise<void>;
  /** ROLLBACK because of `reason`; never throws (a broken connection is dropped by the pool). */
  rollback(reason: unknown): Promise<void>;
}

/** Takes a pooled connection and sends BEGIN on it. */
export async function beginTransaction(db: Db): Promise<OpenTransaction> {
  const shared = db.client;
  const connection = (await shared.acquireConnection()) as { __knexTxId?: string };
  // Knex names the transaction a statement ran in on its events, as its own transactions do:
  // watchers of writes made outside any transaction (list-counts.ts) leave these to the commit.
  connection.__knexTxId = `trx${++transactions}`;
  let open = true;
  const client = Object.create(shared) as Knex.Client;
  client.acquireConnection = () =>
    open ? Promise.resolve(connection) : Promise.reject(new Error(ENDED));
  client.releaseConnection = () => Promise.resolve();
  // As Knex marks its transactions' clients (a nested `transaction()` would take a savepoint).
  Object.assign(client, { transacting: true });
  let settle!: { resolve: (value: unknown) => void; reject: (error: unknown) => void };
  const executionPromise = new Promise((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody need listen to it: a rolled-back transaction is not an unhandled rejection.
  executionPromise.catch(() => undefined);
  const trx = Object.assign(
    (tableName: Knex.TableDescriptor | Knex.AliasDict) => client.queryBuilder().table(tableName),
    {
      raw: ((sql: string, bindings?: Knex.RawBinding) =>
        bindings === undefined ? client.raw(sql) : client.raw(sql, bindings)) as Knex.RawBuilder,
      client,
      isTransaction: true as const,
      executionPromise,
    },
  ) as Transaction;

  const finish = async (failure: unknown): Promise<void> => {
    if (failure === undefined) {
      try {
        await trx.raw('COMMIT;');
      } catch (error) {
        failure = error;
      }
    }
    // A connection that failed may refuse the ROLLBACK too; the pool then drops it on release.
    if (failure !== undefined) await trx.raw('ROLLBACK;').catch(() => undefined);
    open = false;
    delete connection.__knexTxId;
    await shared.releaseConnection(connection);
    if (failure === undefined) settle.resolve(undefined);
    else settle.reject(failure);
  };
  // Ends it once: a second call (a rollback after a failed commit) waits for the first.
  let ending: Promise<void> | undefined;
  const end = (failure: unknown): Promise<void> => (ending ??= finish(failure));
  try {
    await trx.raw('BEGIN;');
  } catch (error) {
    await end(error);
    throw error;
  }
  return {
    trx,
    async commit() {
      await end(undefined);
      await executionPromise;
    },
    rollback: (reason) => end(reason ?? new Error('rolled back')),
  };
}
