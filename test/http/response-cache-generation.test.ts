import { databaseGenerations, processGenerations } from '../../src/http/response-cache-generation';
import { describeEachDb } from '../support/harness';

/**
 * The response cache's generation sources (src/http/response-cache-generation.ts): the value
 * moves with every committed write, and concurrent requests share one read of the database
 * without ever sharing a read sent before they arrived.
 */

describeEachDb('response cache generations', (env) => {
  async function bumpElsewhere(): Promise<void> {
    // As another process's write transaction does: no notification reaches this process.
    await env
      .db('list_generations')
      .insert({ shard: 11, n: 1 })
      .onConflict('shard')
      .merge({ n: env.db.raw('?? + 1', ['list_generations.n']) });
  }

  it('process: moves with this process’s committed writes, with no statement', async () => {
    const source = processGenerations(env.db);
    try {
      const before = source.current();
      expect(await env.countQueries(async () => source.current())).toBe(0);
      await env.db('venues').where({ id: -1 }).update({ phone: '' });
      expect(source.current()).not.toBe(before);
    } finally {
      source.close();
    }
  });

  it('database: concurrent requests share one read', async () => {
    const source = databaseGenerations(env.db);
    try {
      let values: string[] = [];
      const statements = await env.countQueries(async () => {
        values = await Promise.all([1, 2, 3, 4, 5].map(() => source.current()));
      });
      expect(statements).toBe(1);
      expect(new Set(values).size).toBe(1);
    } finally {
      source.close();
    }
  });

  it('database: a request during a read waits for the next read, which sees later writes', async () => {
    const source = databaseGenerations(env.db);
    try {
      const before = await source.current();
      const running = source.current();
      await bumpElsewhere();
      const after = source.current();
      expect(after).not.toBe(running);
      expect(await after).not.toBe(before);
      expect(await source.current()).toBe(await after);
    } finally {
      source.close();
    }
  });
});
