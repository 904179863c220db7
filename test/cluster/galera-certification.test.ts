import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { isRetryable } from '../../src/db/errors';
import { createDb, type Db } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { transact } from '../../src/db/retry';
import { allocatePostIds } from '../../src/transfer/store/bulk';
import { galeraMissing, startGaleraCluster, type GaleraCluster } from '../../scripts/chaos/galera';
import { stopAll } from '../../scripts/chaos/processes';

/**
 * Writes on two nodes of a real Galera cluster (docs/operations.md "Running on Galera"), started
 * by the chaos run's own code (scripts/chaos/galera.ts) on loopback ports of its own. Row locks
 * hold on one node only, so two nodes changing one row at once both proceed; at commit the
 * second fails certification with a deadlock error (1213), and `transact` runs it again on a
 * fresh snapshot: one result each, nothing lost. Skipped (loudly) without galera-4 unless
 * REQUIRE_GALERA=1.
 */

const missing = galeraMissing();
const required = process.env.REQUIRE_GALERA === '1';
if (missing && !required) {
  console.warn(`SKIPPED: Galera certification tests: ${missing} (REQUIRE_GALERA=1 fails instead)`);
}

/** Resolves for both parties once both have arrived (or after 10 s, so nothing hangs). */
function barrier(parties: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
    setTimeout(resolve, 10_000).unref();
  });
  return () => {
    if (++arrived >= parties) open();
    return opened;
  };
}

(missing && !required ? describe.skip : describe)('Galera: certification failures retried', () => {
  let root: string;
  let cluster: GaleraCluster | undefined;
  let one: Db;
  let two: Db;

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_GALERA=1 but ${missing}`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'galera-test-'));
    cluster = await startGaleraCluster(root, 2);
    const [a, b] = cluster.nodes;
    const admin = await mysql.createConnection({
      host: '127.0.0.1',
      port: a!.ports.sql,
      user: 'root',
    });
    await admin.query('CREATE DATABASE cert CHARACTER SET utf8mb4');
    await admin.end();
    one = createDb({ databaseUrl: a!.url('cert'), poolMax: 4 });
    two = createDb({ databaseUrl: b!.url('cert'), poolMax: 4 });
    await migrateLatest(one);
    await one.schema.createTable('cert_rows', (t) => {
      t.increments('id').primary();
      t.string('name', 100).notNullable();
      t.integer('n').notNullable().defaultTo(0);
    });
    await one('cert_rows').insert({ id: 1, name: 'counter', n: 0 });
    // DDL and rows replicate synchronously, but are applied asynchronously: wait until node 2
    // has the table and the row (a read before the DDL is applied there fails: no such table).
    const seenOnTwo = async () => {
      try {
        return (await two('cert_rows').where({ id: 1 }).first()) !== undefined;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && !(await seenOnTwo()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await seenOnTwo()).toBe(true);
  }, 300_000);

  afterAll(async () => {
    await one?.destroy();
    await two?.destroy();
    await cluster?.stop();
    await stopAll();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  }, 120_000);

  // A commit is applied on the other node asynchronously: a causal read (wsrep_sync_wait) waits
  // until this node has applied every commit the cluster made before it.
  const counter = (db: Db) =>
    db.transaction(async (trx) => {
      await trx.raw('SET SESSION wsrep_sync_wait = 1');
      const row = await trx('cert_rows').where({ id: 1 }).first();
      await trx.raw('SET SESSION wsrep_sync_wait = 0');
      return Number(row.n);
    });

  it('fails the second of two overlapping updates of one row at commit, as a retryable deadlock', async () => {
    const before = await counter(one);
    const both = barrier(2);
    const bump = (db: Db) =>
      db.transaction(async (trx) => {
        await trx('cert_rows').where({ id: 1 }).increment('n', 1);
        // Both updated their node's copy of the row before either commits.
        await both();
      });
    const outcomes = await Promise.allSettled([bump(one), bump(two)]);
    const failed = outcomes.filter((o) => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(failed).toHaveLength(1);
    const error = (failed[0] as PromiseRejectedResult).reason as { errno?: number };
    expect(error.errno).toBe(1213);
    expect(isRetryable(error)).toBe(true);
    // Exactly one increment took: the loser changed nothing.
    expect(await counter(one)).toBe(before + 1);
  });

  it('runs the loser again with transact: both increments land, each returns once', async () => {
    const before = await counter(one);
    const both = barrier(2);
    const runs = [0, 0];
    const bump = (db: Db, side: 0 | 1) =>
      transact(db, async (trx) => {
        runs[side]!++;
        const row = await trx('cert_rows').where({ id: 1 }).forUpdate().first();
        const next = Number(row.n) + 1;
        await trx('cert_rows').where({ id: 1 }).update({ n: next });
        if (runs[side] === 1) await both();
        return next;
      });
    const results = await Promise.all([bump(one, 0), bump(two, 1)]);
    expect([...results].sort()).toEqual([before + 1, before + 2]);
    // One side lost certification and ran again; nothing else ran twice.
    expect(runs[0]! + runs[1]!).toBeGreaterThanOrEqual(3);
    expect(await counter(one)).toBe(before + 2);
    expect(await counter(two)).toBe(before + 2);
  });

  it('de-duplicates one name written on both nodes at once (name locks + certification)', async () => {
    const name = { scope: 'cert-test', name: 'Main Hall' };
    // A write of this name before: the name's lock row has been used once already.
    await transact(one, { names: [name] }, async () => undefined);
    const both = barrier(2);
    const runs = [0, 0];
    const findOrCreate = (db: Db, side: 0 | 1) =>
      transact(db, { names: [name] }, async (trx) => {
        runs[side]!++;
        const found = await trx('cert_rows').where({ name: name.name }).first();
        const id = found
          ? Number(found.id)
          : Number((await trx('cert_rows').insert({ name: name.name }))[0]);
        // Both looked the name up (and found nothing) before either commits.
        if (runs[side] === 1) await both();
        return id;
      });
    const [a, b] = await Promise.all([findOrCreate(one, 0), findOrCreate(two, 1)]);
    expect(a).toBe(b);
    const rows = await one('cert_rows').where({ name: name.name });
    expect(rows).toHaveLength(1);
    expect(runs[0]! + runs[1]!).toBeGreaterThanOrEqual(3);
  });

  it('allocates bulk ids with the cluster stepping auto-increments (no consecutive ids assumed)', async () => {
    const [[step]] = (await one.raw('select @@auto_increment_increment as step')) as [
      { step: number }[],
    ];
    expect(Number(step?.step)).toBe(2);
    const ids = await transact(one, (trx) => allocatePostIds(trx, 'mysql', 'event', 25));
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! - ids[i - 1]!).toBe(2);
    const stored = await one('post_ids').whereIn('id', ids).select('id', 'type');
    expect(stored.map((r) => r.type)).toEqual(new Array(25).fill('event'));
  });
});
