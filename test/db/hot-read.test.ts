import { HotRead, KeyedRead } from '../../src/db/hot-read';
import { clientDialect, createDb, type Db } from '../../src/db/knex';
import { insertEvent, resetCalendar } from '../support/event-fixtures';
import { describeEachDb, queriesOn } from '../support/harness';

/**
 * The hot reads (src/db/hot-read.ts) answer what the builder answers, are seen by query
 * observers, keep to a transaction's connection, and are prepared once per connection: on MySQL
 * as prepared statements (falling back to text at the server's ceiling), on SQLite as kept
 * better-sqlite3 statements (src/db/knex.ts).
 */

describeEachDb('hot reads and prepared statements', (env) => {
  let ids: number[];
  // One connection, so that session counters and raw connections are the ones the reads used.
  let db: Db;
  const byIds = new HotRead((q, keys) => q('events').whereIn('id', keys).orderBy('id'));

  beforeAll(async () => {
    await resetCalendar(env);
    ids = [
      await insertEvent(env, { title: 'One', start: '2027-01-05 20:00:00' }),
      await insertEvent(env, { title: 'Two', start: '2027-01-06 20:00:00' }),
    ];
    db = createDb({ databaseUrl: env.config.databaseUrl, poolMax: 1 });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('is told by its client which dialect it speaks', async () => {
    // Dialect-specific SQL (bulk inserts, the reporting views, hot reads) relies on this.
    expect(clientDialect(db)).toBe(env.dialect);
    await env.db.transaction(async (trx) => expect(clientDialect(trx)).toBe(env.dialect));
  });

  it('answers the rows the builder answers, and announces its statement', async () => {
    const [, queries] = await queriesOn(db, async () => {
      const hot = await byIds.run(db, ids);
      expect(hot).toEqual(await db('events').whereIn('id', ids).orderBy('id'));
      expect(hot.map((r) => r.title)).toEqual(['One', 'Two']);
      expect(await byIds.run(db, [ids[1]!])).toMatchObject([{ title: 'Two' }]);
    });
    const sent = queries.map((q) => q.sql);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatch(/from [`"]events[`"] where [`"]id[`"] in \(\?, \?\)/);
  });

  it('reads inside a transaction on its connection', async () => {
    await db.transaction(async (trx) => {
      const id = ids[0]!;
      await trx('events').where('id', id).update({ title: 'Uncommitted' });
      // The pool's only connection is the transaction's: a read beside it would wait forever.
      expect(await byIds.run(trx, [id])).toMatchObject([{ title: 'Uncommitted' }]);
      await trx.rollback();
    });
    expect(await byIds.run(db, [ids[0]!])).toMatchObject([{ title: 'One' }]);
  });

  it('leaves a read whose bindings are not just its keys to the builder', async () => {
    const titled = new HotRead((q, keys) =>
      q('events').whereIn('id', keys).andWhere('title', 'Two'),
    );
    expect(await titled.run(db, ids)).toMatchObject([{ title: 'Two' }]);
  });

  if (env.dialect === 'mysql') {
    async function counters(): Promise<{ prepare: number; execute: number }> {
      const [rows] = (await db.raw(
        "SHOW SESSION STATUS WHERE Variable_name IN ('Com_stmt_prepare', 'Com_stmt_execute')",
      )) as [{ Variable_name: string; Value: string }[]];
      const value = (name: string) => Number(rows.find((r) => r.Variable_name === name)?.Value);
      return { prepare: value('Com_stmt_prepare'), execute: value('Com_stmt_execute') };
    }

    it('prepares a hot read once per connection and executes it each time', async () => {
      const shape = new HotRead((q, keys) => q('events').select('id').whereIn('id', keys));
      const before = await counters();
      await shape.run(db, ids);
      await shape.run(db, [...ids].reverse());
      expect(await counters()).toEqual({
        prepare: before.prepare + 1,
        execute: before.execute + 2,
      });
    });

    it('keeps builder reads and writes on the text protocol', async () => {
      const before = await counters();
      expect(await db('events').whereIn('id', ids)).toHaveLength(2);
      await db('events').where('id', ids[1]!).update({ excerpt: 'changed' });
      expect(await counters()).toEqual(before);
    });

    it('falls back to text when the server holds its maximum of statements', async () => {
      const [[limit]] = (await db.raw("SHOW GLOBAL VARIABLES LIKE 'max_prepared_stmt_count'")) as [
        { Value: string }[],
      ];
      const fresh = new HotRead((q, keys) =>
        q('events').select('title').whereIn('id', keys).orderBy('title', 'desc'),
      );
      await db.raw('SET GLOBAL max_prepared_stmt_count = 0');
      try {
        expect(await fresh.run(db, ids)).toEqual([{ title: 'Two' }, { title: 'One' }]);
      } finally {
        await db.raw(`SET GLOBAL max_prepared_stmt_count = ${Number(limit!.Value)}`);
      }
    });
  } else {
    interface Statement {
      iterate(): Iterator<unknown>;
    }
    interface Connection {
      prepare(sql: string): Statement;
    }

    it('reuses a statement per text, but not one still being iterated', async () => {
      const connection = (await db.client.acquireConnection()) as Connection;
      try {
        const sql = 'select id from events order by id';
        const statement = connection.prepare(sql);
        expect(connection.prepare(sql)).toBe(statement);
        expect(connection.prepare('select title from events')).not.toBe(statement);
        const open = statement.iterate();
        open.next();
        expect(connection.prepare(sql)).not.toBe(statement);
        open.return?.();
        expect(connection.prepare(sql)).toBe(statement);
      } finally {
        await db.client.releaseConnection(connection);
      }
    });

    it('answers reads from kept statements after writes and schema changes', async () => {
      const titles = async () => (await byIds.run(db, ids)).map((r) => r.title);
      expect(await titles()).toEqual(['One', 'Two']);
      await db('events').where('id', ids[0]!).update({ title: 'Uno' });
      await db.schema.alterTable('events', (t) => t.string('scratch').nullable());
      expect(await titles()).toEqual(['Uno', 'Two']);
    });
  }
  it('keeps a keyed statement per key, and the tests check that the key decides it', async () => {
    const titled = new KeyedRead();
    const byTitle = (title: string) => () => db('events').select('id').where({ title });
    const [, sent] = await queriesOn(db, async () => {
      expect(await titled.run(db, 'Two', byTitle('Two'))).toEqual([{ id: ids[1] }]);
      expect(await titled.run(db, 'Two', byTitle('Two'))).toEqual([{ id: ids[1] }]);
      expect(await titled.run(db, 'None', byTitle('None'))).toEqual([]);
    });
    expect(sent).toHaveLength(3);
    // A key that leaves out what the statement binds would answer another list: caught here.
    await expect(titled.run(db, 'Two', byTitle('None'))).rejects.toThrow(
      'KeyedRead: the key "Two" does not decide its statement',
    );
  });
});
