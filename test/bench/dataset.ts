import fs from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { loadConfig, type Config } from '../../src/config/config';
import { createDb, type Db, type Dialect } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { bumpListGeneration } from '../../src/db/list-counts';
import { refreshTermCounts } from '../../src/terms/terms';
import { build, MARKER, type BeforeImport } from './dataset-build';
import { GENERATOR_VERSION } from './dataset-gen';

/**
 * Benchmark datasets live in databases of their own (MySQL `cal_bench_<events>`, SQLite
 * `data/bench-<events>.sqlite`) and are built once through the service's bulk path, then reused:
 * a `bench_dataset` row records what was built (generator version, size, the ids the scenarios
 * use, the highest ids). Anything written after that (W1, the query counter) is removed before
 * each run, so every run reads the same data. `fresh` rebuilds.
 */

export interface DatasetInfo {
  version: number;
  seed: number;
  events: number;
  builtAt: string;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  /** What the scenarios ask for: a representative event, its links, a category, a word. */
  sample: {
    eventId: number;
    eventSlug: string;
    venueId: number;
    organizerIds: number[];
    categoryId: number;
    searchWord: string;
  };
  maxPostId: number;
  maxTermId: number;
  /** Bearer token of the dataset's administrator (W1), set through ADMIN_TOKEN at build. */
  token: string;
  importSeconds: number;
  eventsPerSecond: number;
}

export interface DatasetTarget {
  dialect: Dialect;
  events: number;
  /** `mysql://user:pass@host:port` (no database): where `cal_bench_<n>` lives. */
  mysqlServer: string;
  seed: number;
}

/** The repository root: SQLite datasets go to its `data/` folder whatever the working directory. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export function datasetUrl(target: DatasetTarget): string {
  if (target.dialect === 'sqlite') {
    return `sqlite:${path.join(REPO_ROOT, 'data', `bench-${target.events}.sqlite`)}`;
  }
  const url = new URL(target.mysqlServer);
  url.pathname = `/cal_bench_${target.events}`;
  return url.toString();
}

async function mysqlAdmin(server: string, sql: string[]): Promise<void> {
  const url = new URL(server);
  const conn = await mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
  try {
    for (const statement of sql) await conn.query(statement);
  } finally {
    await conn.end();
  }
}

/** Drops (when `fresh`) and creates the dataset's database; returns a migrated handle. */
async function open(target: DatasetTarget, fresh: boolean): Promise<{ db: Db; config: Config }> {
  const databaseUrl = datasetUrl(target);
  if (target.dialect === 'mysql') {
    const name = `cal_bench_${target.events}`;
    await mysqlAdmin(target.mysqlServer, [
      ...(fresh ? [`DROP DATABASE IF EXISTS \`${name}\``] : []),
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4`,
    ]);
  } else if (fresh) {
    const file = path.resolve(databaseUrl.slice('sqlite:'.length));
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  }
  const config = loadConfig({ DATABASE_URL: databaseUrl, SITE_URL: 'http://calendar.bench' });
  const db = createDb({ databaseUrl, poolMax: 4 });
  await migrateLatest(db);
  return { db, config };
}

async function readMarker(db: Db): Promise<DatasetInfo | null> {
  if (!(await db.schema.hasTable(MARKER))) return null;
  const row = await db(MARKER).where({ name: 'info' }).first();
  return row ? (JSON.parse(String(row.value)) as DatasetInfo) : null;
}

async function count(db: Db, table: string): Promise<number> {
  const [row] = await db(table).count({ n: '*' });
  return Number(row?.n ?? 0);
}

/**
 * Deletes what was written after the dataset was built (W1's events, their links and ids, the
 * event the query counter posts) and recounts the terms they touched.
 */
export async function removeWrites(db: Db, info: DatasetInfo): Promise<number> {
  const extra = await db('events').where('id', '>', info.maxPostId).pluck('id');
  const terms = await db('event_terms')
    .where('event_id', '>', info.maxPostId)
    .distinct()
    .pluck('term_id');
  await db.transaction(async (trx) => {
    await trx('event_terms').where('event_id', '>', info.maxPostId).delete();
    await trx('event_organizers').where('event_id', '>', info.maxPostId).delete();
    await trx('events').where('id', '>', info.maxPostId).delete();
    for (const table of ['venues', 'organizers', 'images']) {
      await trx(table).where('id', '>', info.maxPostId).delete();
    }
    await trx('post_ids').where('id', '>', info.maxPostId).delete();
    await trx('terms').where('id', '>', info.maxTermId).delete();
    const kept = terms.map(Number).filter((id) => id <= info.maxTermId);
    if (kept.length) await refreshTermCounts(trx, kept);
    // A server still running on this dataset must not keep totals that counted these writes.
    await bumpListGeneration(trx);
  });
  return extra.length;
}

/** The dataset of `target`, built when missing, stale or `fresh`; writes of past runs removed. */
export async function ensureDataset(
  target: DatasetTarget,
  fresh: boolean,
  beforeImport: BeforeImport,
): Promise<{ info: DatasetInfo; databaseUrl: string; built: boolean }> {
  let { db, config } = await open(target, fresh);
  try {
    let info = await readMarker(db);
    const usable =
      info !== null &&
      info.version === GENERATOR_VERSION &&
      info.events === target.events &&
      info.seed === target.seed &&
      typeof info.token === 'string';
    if (info && usable) {
      const removed = await removeWrites(db, info);
      if (removed) process.stderr.write(`  removed ${removed} event(s) written by a past run\n`);
      if ((await count(db, 'events')) === info.events) {
        return { info, databaseUrl: config.databaseUrl, built: false };
      }
    }
    // Missing, stale or damaged: rebuild from an empty database.
    if (info !== null || (await count(db, 'events')) > 0) {
      await db.destroy();
      ({ db, config } = await open(target, true));
    }
    info = await build(db, config, target, beforeImport);
    return { info, databaseUrl: config.databaseUrl, built: true };
  } finally {
    await db.destroy();
  }
}

export type { BeforeImport };
