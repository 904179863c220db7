import { createDb, type Db } from '../../src/db';
import { bootstrapAdmin, ensureBuiltinAdmin, type BootstrapResult } from '../../src/users/users';
import { lockWaits } from '../db/lock-waits';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * Several instances starting at once on an empty database: exactly one administrator, and every
 * instance starts (none fails on the unique login another one took). On MySQL each instance is
 * its own Knex handle (its own pool), as separate processes would be. SQLite's driver is
 * synchronous: a second handle in this process would wait out its busy timeout on the thread the
 * first one needs, so there the racers share the test's handle (its writes take turns, as those
 * of separate processes do at the file lock).
 */

const NOW = new Date('2026-11-21T08:00:00Z');
const INSTANCES = 3;

/** Back to a database nobody has started on yet: no users, no credentials. */
async function emptyUsers(env: TestEnv): Promise<void> {
  for (const table of ['feed_tokens', 'api_tokens', 'app_passwords', 'users']) {
    await env.db(table).delete();
  }
}

async function usersOf(env: TestEnv): Promise<{ login: string; role: string }[]> {
  return env.db('users').select('login', 'role').orderBy('id');
}

async function tokenCount(env: TestEnv): Promise<number> {
  return Number((await env.db('api_tokens').count({ n: '*' }))[0]!.n);
}

describeEachDb('first administrator, instances racing', (env) => {
  const instances: Db[] = [];

  beforeAll(async () => {
    if (env.dialect === 'sqlite') {
      for (let i = 0; i < INSTANCES; i++) instances.push(env.db);
      return;
    }
    for (let i = 0; i < INSTANCES; i++) {
      const db = createDb({ databaseUrl: env.config.databaseUrl, poolMax: 2 });
      // Connected before the race, so no instance starts late for want of a connection.
      await db.raw('SELECT 1');
      instances.push(db);
    }
  });
  afterAll(async () => {
    if (env.dialect === 'mysql') for (const db of instances) await db.destroy();
  });

  it('all start at once: one creates admin with its token, the others see it', async () => {
    for (const adminToken of [undefined, 'calendar-admin-token-0123456789abcdef']) {
      await emptyUsers(env);
      const results = await Promise.all(instances.map((db) => bootstrapAdmin(db, NOW, adminToken)));
      const created = results.filter((r) => r.created);
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ login: 'admin' });
      expect(created[0]!.created && created[0]!.token !== null).toBe(adminToken === undefined);
      for (const r of results.filter((r) => !r.created)) {
        // The winner's token is live: nothing to warn about, the chosen token included.
        expect(r).toEqual({ created: false, adminTokenIgnored: false, noCredentials: false });
      }
      expect(await usersOf(env)).toEqual([{ login: 'admin', role: 'administrator' }]);
      expect(await tokenCount(env)).toBe(1);
    }
  });

  it('an importer and the instances creating the default author at once: one admin for all', async () => {
    await emptyUsers(env);
    const authors = await Promise.all(instances.map((db) => ensureBuiltinAdmin(db, NOW)));
    expect(new Set(authors.map((a) => a.id)).size).toBe(1);
    expect(authors[0]).toMatchObject({ login: 'admin', role: 'administrator' });
    expect(await usersOf(env)).toEqual([{ login: 'admin', role: 'administrator' }]);
  });

  it('MySQL: the second instance meets the first one’s uncommitted admin and runs again', async () => {
    if (env.dialect !== 'mysql') return; // SQLite has one writer: its racers never overlap.
    await emptyUsers(env);
    const [first, second, blocker] = instances as [Db, Db, Db];
    // The blocker holds every write-generation row, which a write transaction updates last:
    // the first instance then waits just before its commit, with `admin` inserted.
    const shards = Array.from({ length: 16 }, (_, shard) => ({ shard, n: 0 }));
    await env.db('list_generations').insert(shards).onConflict('shard').ignore();
    const held = await blocker.transaction();
    await held('list_generations').select('shard').forUpdate();
    let loserCounts = 0;
    second.on('query', (q: { sql: string }) => {
      if (/^select count\(\*\) .* from `users`/i.test(q.sql)) loserCounts++;
    });
    let winner: Promise<BootstrapResult> | undefined;
    let loser: Promise<BootstrapResult> | undefined;
    try {
      winner = bootstrapAdmin(first, NOW);
      await lockWaits(env.db, 1);
      // Sees no user (the first one's is uncommitted), inserts `admin`: waits on its key.
      loser = bootstrapAdmin(second, NOW);
      await lockWaits(env.db, 2);
    } finally {
      await held.commit();
    }
    const [won, lost] = await Promise.all([winner, loser]);
    expect(won).toMatchObject({ created: true, login: 'admin' });
    expect(lost).toEqual({ created: false, adminTokenIgnored: false, noCredentials: false });
    // Counted before, in its first run (which lost at the index) and in the run that saw admin.
    expect(loserCounts).toBe(3);
    expect(await usersOf(env)).toEqual([{ login: 'admin', role: 'administrator' }]);
    expect(await tokenCount(env)).toBe(1);
  });
});
