import { transact } from '../../src/db/retry';
import { describeEachDb } from '../support/harness';

/**
 * `transact` (src/db/retry.ts) on real databases: a transaction that lost a race is rolled back
 * and run again whole, a bounded number of times; anything else fails at once. On MySQL a real
 * deadlock (two transactions locking two rows in opposite orders) is resolved by the retry —
 * the error Galera reports for a certification failure is the same one
 * (test/cluster/galera-certification.test.ts).
 */

const deadlock = () =>
  Object.assign(new Error('Deadlock found when trying to get lock'), {
    code: 'ER_LOCK_DEADLOCK',
    errno: 1213,
  });

/** Resolves for both parties once both have arrived (or after 5 s, so nothing hangs). */
function barrier(parties: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
    setTimeout(resolve, 5_000).unref();
  });
  return () => {
    if (++arrived >= parties) open();
    return opened;
  };
}

describeEachDb('transact retries', (env) => {
  beforeAll(async () => {
    await env.db.schema.createTable('retry_rows', (t) => {
      t.increments('id').primary();
      t.string('name', 50).notNullable();
      t.integer('n').notNullable().defaultTo(0);
    });
  });
  beforeEach(async () => {
    await env.db('retry_rows').delete();
  });

  it('rolls a lost run back and runs the whole transaction again', async () => {
    let runs = 0;
    const result = await transact(env.db, async (trx) => {
      runs++;
      await trx('retry_rows').insert({ name: `run ${runs}` });
      if (runs === 1) throw deadlock();
      return runs;
    });
    expect(result).toBe(2);
    // The first run's row went with its rollback: one row, the second run's.
    expect((await env.db('retry_rows').select('name')).map((r) => r.name)).toEqual(['run 2']);
  });

  it('gives up after 8 runs with the last error, and never retries other errors', async () => {
    let runs = 0;
    await expect(
      transact(env.db, async () => {
        runs++;
        throw deadlock();
      }),
    ).rejects.toMatchObject({ errno: 1213 });
    expect(runs).toBe(8);

    runs = 0;
    await expect(
      transact(env.db, async (trx) => {
        runs++;
        await trx('retry_rows').insert({ name: 'kept?' });
        throw new Error('a bug');
      }),
    ).rejects.toThrow('a bug');
    expect(runs).toBe(1);
    expect(await env.db('retry_rows').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('resolves a real deadlock: both transactions commit, each once', async () => {
    if (env.dialect !== 'mysql') return; // SQLite has one writer: no deadlock to make.
    const [a, b] = [
      Number((await env.db('retry_rows').insert({ name: 'a' }))[0]),
      Number((await env.db('retry_rows').insert({ name: 'b' }))[0]),
    ];
    const both = barrier(2);
    const runs = [0, 0];
    // Opposite orders: each holds one row and waits for the other's; InnoDB kills one.
    const bump = (first: number, second: number, side: 0 | 1) =>
      transact(env.db, async (trx) => {
        runs[side]!++;
        await trx('retry_rows').where({ id: first }).increment('n', 1);
        if (runs[side] === 1) await both();
        await trx('retry_rows').where({ id: second }).increment('n', 1);
        return runs[side];
      });
    await Promise.all([bump(a, b, 0), bump(b, a, 1)]);
    expect(runs[0]! + runs[1]!).toBe(3);
    const rows = await env.db('retry_rows').orderBy('id').select('n');
    expect(rows.map((r) => Number(r.n))).toEqual([2, 2]);
  });
});
