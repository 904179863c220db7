import { createHash } from 'node:crypto';
import type { Queryable } from './queryable';

/**
 * Transaction-scoped locks on names (table `name_locks`): de-duplication by name has no unique
 * index to lean on (two live venues may share a name when their descriptions differ), so writes
 * that may create a record by name lock that name first. The lock is the row lock of an
 * insert-or-update on the name's row, held until COMMIT/ROLLBACK on MySQL (InnoDB, TiDB
 * pessimistic, Vitess) and trivially on SQLite (one writer at a time). Portable SQL, no
 * GET_LOCK (session-scoped, so it would have to outlive the transaction's connection use; and
 * not replicated by Galera).
 *
 * Galera (docs/operations.md "Running on Galera"): row locks hold on one node only; two nodes
 * creating the same name at once each lock their own copy of the row, each find no record and
 * each insert one. What stops the second is certification: at commit a transaction's write set
 * (the keys of the rows it changed) is checked against every transaction that committed on any
 * node since its snapshot, and one touching the same row fails with a deadlock error (1213),
 * which `transact` retries on a fresh snapshot that sees the winner's record. For that the lock
 * must *change* the row: an insert-or-update that finds the row and sets it to itself changes
 * nothing, and an unchanged row puts no key in the write set. So the rows are inserted (or
 * found) and then deleted in the same transaction: both are changes whatever was there before,
 * the table stays empty between writes, and on one server the insert's row lock still lasts
 * until the end of the transaction.
 */

/**
 * The key of a name: scope plus the name folded harder than any collation compares (case,
 * accents, punctuation and spaces ignored), hashed to a fixed width. Folding too much only
 * serialises a few unrelated writes; folding too little would let a duplicate through.
 */
export function nameLockKey(scope: string, name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
  return createHash('sha256').update(`${scope}\u0000${folded}`).digest('hex');
}

/**
 * Locks these keys inside the transaction `q`, in sorted order so that two transactions never
 * wait for each other's names. The rows are inserted (or, when present, updated to themselves)
 * and deleted again: locked until the transaction ends, and in its write set (see above).
 */
export async function lockNameKeys(q: Queryable, keys: readonly string[]): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return;
  await q('name_locks')
    .insert(sorted.map((lock_key) => ({ lock_key })))
    .onConflict('lock_key')
    .merge();
  await q('name_locks').whereIn('lock_key', sorted).delete();
}
