import type { Db } from '../../src/db';

/**
 * Waits until `count` statements on `db`'s MySQL database have been running for a second or
 * more: in these small test databases, statements blocked on a row lock another transaction
 * holds. A test then releases a lock only once the racers it holds back have reached it, so the
 * race is made by the locks. (InnoDB's own `innodb_trx` does not list every waiter on MariaDB
 * 10.11, so the process list is read.) Other databases on the server are not counted. Throws
 * after `timeoutMs`, so nothing hangs.
 */
export async function lockWaits(db: Db, count: number, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [rows] = (await db.raw(
      `SELECT COUNT(*) AS n FROM information_schema.processlist
        WHERE db = DATABASE() AND id <> CONNECTION_ID() AND command = 'Query'
          AND time_ms >= ${WAITING_MS}`,
    )) as [{ n: number | string }[]];
    if (Number(rows[0]?.n) >= count) return;
    if (Date.now() > until) throw new Error(`${count} lock wait(s) expected, ${rows[0]?.n} seen`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How long a statement runs before it counts as waiting (each of ours takes milliseconds). */
const WAITING_MS = 1000;
