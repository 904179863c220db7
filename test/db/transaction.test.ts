import { onCommittedWrite, watchCommittedWrites } from '../../src/db/list-counts';
import { beginTransaction } from '../../src/db/transaction';
import { describeEachDb } from '../support/harness';

/**
 * `beginTransaction` (src/db/transaction.ts) on real databases: one pooled connection between
 * BEGIN and COMMIT or ROLLBACK, its statements announced like any other, the connection back in
 * the pool afterwards, and a builder of an ended transaction refused rather than run on a
 * connection the pool has lent to someone else.
 */

describeEachDb('beginTransaction', (env) => {
  beforeAll(async () => {
    await env.db.schema.createTable('tx_rows', (t) => {
      t.increments('id').primary();
      t.string('name', 50).notNullable().unique();
    });
  });
  beforeEach(async () => {
    await env.db('tx_rows').delete();
  });

  const names = async (): Promise<string[]> =>
    (await env.db('tx_rows').orderBy('name').select('name')).map((r) => r.name as string);

  /** Pooled connections lent out now (Knex's pool: tarn). */
  const borrowed = (): number => (env.db.client as { pool: { numUsed(): number } }).pool.numUsed();

  it('commits what ran between BEGIN and COMMIT, announcing each statement', async () => {
    const seen = await env.statementsOf(async () => {
      const open = await beginTransaction(env.db);
      expect(open.trx.isTransaction).toBe(true);
      await open.trx('tx_rows').insert({ name: 'kept' });
      // Not visible outside before the commit (SQLite: the one connection is the transaction's).
      if (env.dialect === 'mysql') expect(await names()).toEqual([]);
      await open.commit();
      await expect(open.trx.executionPromise).resolves.toBeUndefined();
    });
    expect(await names()).toEqual(['kept']);
    expect(seen[0]).toBe('BEGIN;');
    expect(seen[seen.length - 1]).toBe('COMMIT;');
    expect(seen.filter((sql) => /insert/i.test(sql))).toHaveLength(1);
    expect(borrowed()).toBe(0);
  });

  it('tells watchers of committed writes nothing before the commit', async () => {
    watchCommittedWrites(env.db);
    let heard = 0;
    const stop = onCommittedWrite(() => heard++);
    try {
      const open = await beginTransaction(env.db);
      await open.trx('tx_rows').insert({ name: 'watched' });
      // A write statement outside any transaction would have been heard at once.
      expect(heard).toBe(0);
      await open.commit();
      await env.db('tx_rows').insert({ name: 'outside' });
      expect(heard).toBe(1);
    } finally {
      stop();
    }
  });

  it('rolls back everything on rollback, and rejects its execution promise', async () => {
    const open = await beginTransaction(env.db);
    await open.trx('tx_rows').insert({ name: 'gone' });
    const reason = new Error('the unit of work failed');
    await open.rollback(reason);
    await expect(open.trx.executionPromise).rejects.toBe(reason);
    expect(await names()).toEqual([]);
    expect(borrowed()).toBe(0);
  });

  it('goes on after a refused statement, as the slug retry needs', async () => {
    await env.db('tx_rows').insert({ name: 'taken' });
    const open = await beginTransaction(env.db);
    await expect(open.trx('tx_rows').insert({ name: 'taken' })).rejects.toThrow();
    await open.trx('tx_rows').insert({ name: 'taken-2' });
    await open.commit();
    expect(await names()).toEqual(['taken', 'taken-2']);
  });

  it('refuses a statement once the transaction has ended, leaving the pool alone', async () => {
    const open = await beginTransaction(env.db);
    const late = open.trx('tx_rows').insert({ name: 'late' });
    const lateRaw = open.trx.raw('select 1');
    await open.commit();
    await expect(late).rejects.toThrow(/transaction has ended/);
    await expect(lateRaw).rejects.toThrow(/transaction has ended/);
    await open.rollback(new Error('after the commit: nothing to do'));
    expect(await names()).toEqual([]);
    expect(borrowed()).toBe(0);
  });

  it('releases its connection when the commit fails, and says so', async () => {
    const open = await beginTransaction(env.db);
    await open.trx('tx_rows').insert({ name: 'never' });
    // The connection dies under the transaction: COMMIT cannot reach the database.
    if (env.dialect === 'mysql') {
      const [[{ id }]] = (await open.trx.raw('select connection_id() as id')) as [[{ id: number }]];
      await env.db.raw(`kill ${Number(id)}`);
      await expect(open.commit()).rejects.toThrow();
      await expect(open.trx.executionPromise).rejects.toThrow();
      expect(await names()).toEqual([]);
    } else {
      // SQLite's connection is the database file itself: nothing to kill, the commit holds.
      await open.commit();
      expect(await names()).toEqual(['never']);
    }
    expect(borrowed()).toBe(0);
  });
});
