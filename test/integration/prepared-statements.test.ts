import { clientDialect, createDb, type Db } from '../../src/db/knex';
import { prepared } from '../../src/db/mysql-prepared';
import { insertEvent, resetCalendar } from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';

/**
 * Statements are prepared once per connection (src/db/knex.ts, src/db/mysql-prepared.ts): on
 * MySQL the reads marked `prepared()` go as prepared statements, everything else as text; on
 * SQLite every statement text is prepared once and reused.
 */

describeEachDb('prepared statements', (env) => {
  let ids: number[];
  // One connection, so that session counters and raw connections are the ones the reads used.
  let db: Db;

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
    // Dialect-specific SQL (bulk inserts, the reporting views) relies on this.
    expect(clientDialect(db)).toBe(env.dialect);
    expect(clientDialect(env.db)).toBe(env.dialect);
    await env.db.transaction(async (trx) => expect(clientDialect(trx)).toBe(env.dialect));
  });

  if (env.dialect === 'mysql') {
    async function counters(): Promise<{ prepare: number; execute: number }> {
      const [rows] = (await db.raw(
        "SHOW SESSION STATUS WHERE Variable_name IN ('Com_stmt_prepare', 'Com_stmt_execute')",
      )) as [{ Variable_name: string; Value: string }[]];
      const value = (name: string) => Number(rows.find((r) => r.Variable_name === name)?.Value);
      return { prepare: value('Com_stmt_prepare'), execute: value('Com_stmt_execute') };
    }

    it('prepares a read once and executes it each time, with the same rows as text', async () => {
      const before = await counters();
      const first = await prepared(db('events').whereIn('id', ids).orderBy('id'));
      const second = await prepared(db('events').whereIn('id', ids).orderBy('id'));
      const after = await counters();
      expect(after).toEqual({ prepare: before.prepare + 1, execute: before.execute + 2 });
      // The binary protocol decodes to the same values as the text protocol.
      const [text] = (await db.raw('select * from `events` where `id` in (?, ?) order by `id`', [
        ...ids,
      ])) as [Record<string, unknown>[]];
      expect(first).toEqual(text);
      expect(second).toEqual(text);
      expect(first.map((r: { title: string }) => r.title)).toEqual(['One', 'Two']);
    });

    it('keeps unmarked reads, paged reads and writes on the text protocol', async () => {
      const before = await counters();
      expect(await db('events').whereIn('id', ids)).toHaveLength(2);
      const paged = await prepared(db('events').where('id', ids[0]!).limit(1));
      expect(paged).toMatchObject([{ title: 'One' }]);
      await db('events').where('id', ids[1]!).update({ excerpt: 'changed' });
      expect(await counters()).toEqual(before);
    });

    it('falls back to text when the server holds its maximum of statements', async () => {
      const [[limit]] = (await db.raw("SHOW GLOBAL VARIABLES LIKE 'max_prepared_stmt_count'")) as [
        { Value: string }[],
      ];
      await db.raw('SET GLOBAL max_prepared_stmt_count = 0');
      try {
        const rows = await prepared(
          db('events').select('title').whereIn('id', ids).orderBy('title', 'desc'),
        );
        expect(rows).toEqual([{ title: 'Two' }, { title: 'One' }]);
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
        const other = connection.prepare(sql);
        expect(other).not.toBe(statement);
        open.return?.();
        expect(connection.prepare(sql)).toBe(statement);
      } finally {
        await db.client.releaseConnection(connection);
      }
    });

    it('answers reads from kept statements after writes and schema changes', async () => {
      const titles = () => db('events').whereIn('id', ids).orderBy('id').pluck('title');
      expect(await titles()).toEqual(['One', 'Two']);
      await db('events').where('id', ids[0]!).update({ title: 'Uno' });
      await db.schema.alterTable('events', (t) => t.string('scratch').nullable());
      expect(await titles()).toEqual(['Uno', 'Two']);
    });
  }
});
