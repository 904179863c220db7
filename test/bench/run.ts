import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config';
import { createDb, type Dialect } from '../../src/db/knex';
import { ensureDataset, removeWrites, type BeforeImport, type DatasetInfo } from './dataset';
import { load, probe, type LoadResult } from './load';
import { parseOptions, UsageError, type BenchOptions } from './options';
import {
  buildIsCurrent,
  buildService,
  serviceArgs,
  start,
  rssSampler,
  type Running,
} from './processes';
import { QueryCounter } from './queries';
import { firstDifference, median, table, type ScenarioResult } from './report';
import { scenarios, type Scenario } from './scenarios';

/**
 * `npm run bench`: builds the service, makes sure the dataset exists, starts the service
 * (as `npm start` does, V8 flags included; NODE_ENV=production) and the raw baseline on free ports, then drives
 * each scenario with autocannon after a warm-up, service and baseline alternately, and reports
 * medians. See docs/performance.md "The benchmark".
 */

const RESULTS = path.join(__dirname, 'results');
const SITE_URL = 'http://calendar.bench';
const SERVICE = serviceArgs();
const RAW = ['--import', 'tsx', path.join('test', 'bench', 'raw', 'raw-server.ts')];
const READY = '/graphql?query=%7B__typename%7D';

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Starts the service once on the empty dataset database with ADMIN_TOKEN (first start). */
function bootstrapAdmin(): BeforeImport {
  return async (databaseUrl, token) => {
    const env = { DATABASE_URL: databaseUrl, SITE_URL, ADMIN_TOKEN: token };
    const first = await start('bootstrap', SERVICE, env, READY, RESULTS);
    await first.stop();
  };
}

/** Why a scenario cannot be measured, from its probe; null when it answers 2xx. */
function unavailable(status: number, json: unknown, text: string): string | null {
  if (status >= 200 && status < 300) return null;
  const code = (json as { code?: string } | null)?.code;
  if (status === 404 && (code === undefined || code === 'rest_no_route')) {
    return 'n/a (route missing)';
  }
  if (status === 401 || status === 403) {
    return `n/a (HTTP ${status} ${code ?? ''}: the dataset's token is not accepted; try --fresh)`;
  }
  return `n/a (HTTP ${status} ${code ?? text.slice(0, 60)})`;
}

async function measure(
  db: Dialect,
  scenario: Scenario,
  service: Running,
  raw: Running,
  counter: QueryCounter,
  opts: BenchOptions,
): Promise<ScenarioResult> {
  const result: ScenarioResult = {
    db,
    id: scenario.id,
    title: scenario.title,
    status: 'ok',
    rps: null,
    p50: null,
    p99: null,
    queries: null,
    rssMb: null,
    raw: null,
    ratio: null,
    failures: 0,
    sameJson: null,
    notes: [],
    runs: [],
    rawRuns: [],
  };
  const first = await probe(service.base, scenario.request);
  const problem = unavailable(first.status, first.json, first.text);
  if (problem) return { ...result, status: problem };
  const rawRequest = scenario.rawPath ? { method: 'GET' as const, path: scenario.rawPath } : null;
  if (rawRequest && scenario.id !== 'G1') {
    const rawFirst = await probe(raw.base, rawRequest);
    const diff = firstDifference(first.json, rawFirst.json);
    result.sameJson = diff === null;
    if (diff) result.notes.push(`JSON ≠ raw at ${diff}`);
  }
  // Counted while the service is idle: after a write load it may still be draining requests,
  // and on SQLite the counter's own write would wait for the service's write lock.
  result.queries = (await counter.count(scenario.request)).queries;
  if (opts.warmup > 0) {
    await load(service.base, scenario.request, opts.warmup, opts.connections);
    if (rawRequest) await load(raw.base, rawRequest, opts.warmup, opts.connections);
  }
  const peaks: number[] = [];
  for (let run = 0; run < opts.runs; run++) {
    // Service and baseline alternate, so both see the same machine load (docs/performance.md).
    const sampler = rssSampler(service.child.pid);
    result.runs.push(await load(service.base, scenario.request, opts.duration, opts.connections));
    const peak = sampler.stop();
    if (peak !== null) peaks.push(peak);
    if (rawRequest) {
      result.rawRuns.push(await load(raw.base, rawRequest, opts.duration, opts.connections));
    }
  }
  const med = (runs: LoadResult[], key: 'rps' | 'p50' | 'p99') => median(runs.map((r) => r[key]));
  result.rps = med(result.runs, 'rps');
  result.p50 = med(result.runs, 'p50');
  result.p99 = med(result.runs, 'p99');
  result.rssMb = peaks.length ? median(peaks) : null;
  result.failures = result.runs.reduce((n, r) => n + r.failures, 0);
  if (result.failures) result.notes.push(`${result.failures} failed responses`);
  if (result.rawRuns.length) {
    const r = result.rawRuns;
    result.raw = { rps: med(r, 'rps'), p50: med(r, 'p50'), p99: med(r, 'p99') };
    result.ratio = result.raw.rps > 0 ? result.rps / result.raw.rps : null;
  }
  if (scenario.id === 'G1') result.notes.push('raw = S2 data');
  return result;
}

async function benchDb(
  dialect: Dialect,
  opts: BenchOptions,
): Promise<{
  info: DatasetInfo;
  built: boolean;
  results: ScenarioResult[];
}> {
  say(`\n== ${dialect}, ${opts.events.toLocaleString('en-US')} events`);
  const target = { dialect, events: opts.events, mysqlServer: opts.mysqlServer, seed: opts.seed };
  const { info, databaseUrl, built } = await ensureDataset(target, opts.fresh, bootstrapAdmin());
  if (!built) say(`  reusing the dataset built ${info.builtAt}`);
  if (opts.build && !buildIsCurrent()) buildService();
  if (dialect === 'mysql') await warnSmallBufferPool(databaseUrl);
  const env = { DATABASE_URL: databaseUrl, SITE_URL };
  const apiRoot = loadConfig({ ...process.env, ...env }).apiRoot;
  const service = await start(`service-${dialect}`, SERVICE, env, READY, RESULTS);
  const raw = await start(`raw-${dialect}`, RAW, env, '/', RESULTS);
  const counter = await QueryCounter.open(env);
  const results: ScenarioResult[] = [];
  try {
    const all = scenarios(apiRoot, info, info.token);
    for (const id of opts.scenarios) {
      const r = await measure(dialect, all[id], service, raw, counter, opts);
      const figures = r.status === 'ok' ? `${Math.round(r.rps ?? 0)} req/s` : r.status;
      say(`  ${id} ${figures}`);
      results.push(r);
    }
  } finally {
    await counter.close();
    await service.stop();
    await raw.stop();
    const db = createDb({ databaseUrl, poolMax: 1 });
    await removeWrites(db, info).finally(() => db.destroy());
  }
  return { info, built, results };
}

/**
 * Figures from a dataset that does not fit in InnoDB's buffer pool measure the disk, not the
 * service (MariaDB's default pool is 128 MB; the 1M dataset is about 900 MB): say so.
 */
async function warnSmallBufferPool(databaseUrl: string): Promise<void> {
  const db = createDb({ databaseUrl, poolMax: 1 });
  try {
    type Bytes = [{ bytes: number | string }[]];
    const [[pool]] = (await db.raw('SELECT @@innodb_buffer_pool_size AS bytes')) as Bytes;
    const [[size]] = (await db.raw(
      'SELECT SUM(data_length + index_length) AS bytes FROM information_schema.tables ' +
        'WHERE table_schema = DATABASE()',
    )) as Bytes;
    const mb = (row: { bytes: number | string } | undefined) =>
      Math.round(Number(row?.bytes) / 2 ** 20);
    say(`  InnoDB buffer pool ${mb(pool)} MB, dataset ${mb(size)} MB`);
    if (mb(pool) < mb(size)) {
      say(
        '  warning: the dataset does not fit in the buffer pool, so reads wait for the disk;' +
          ' raise it, e.g. SET GLOBAL innodb_buffer_pool_size = 2147483648 (docs/performance.md).',
      );
    }
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2), path.join(RESULTS, 'latest.json'));
  fs.mkdirSync(RESULTS, { recursive: true });
  if (opts.build) buildService();
  const started = new Date();
  const loadAtStart = os.loadavg();
  const all: ScenarioResult[] = [];
  const datasets: Record<string, Omit<DatasetInfo, 'token'> & { builtThisRun: boolean }> = {};
  for (const dialect of opts.dbs) {
    const { info, built, results } = await benchDb(dialect, opts);
    // The dataset's bearer token stays out of the report.
    const visible: Partial<DatasetInfo> = { ...info };
    delete visible.token;
    datasets[dialect] = { ...(visible as Omit<DatasetInfo, 'token'>), builtThisRun: built };
    all.push(...results);
  }
  for (const dialect of opts.dbs) {
    const d = datasets[dialect]!;
    console.log(
      `\n${dialect}: ${d.events.toLocaleString('en-US')} events, ${d.venues} venues, ${d.organizers} organizers; ` +
        `bulk import ${Math.round(d.eventsPerSecond).toLocaleString('en-US')} events/s` +
        `${d.builtThisRun ? '' : ` (when built, ${d.builtAt})`}; ` +
        `${opts.connections} connections, ${opts.runs} × ${opts.duration} s, medians`,
    );
    console.log(table(all.filter((r) => r.db === dialect)));
  }
  const report = {
    startedAt: started.toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, loadAtStart },
    options: { ...opts, out: undefined },
    datasets,
    results: all,
  };
  fs.writeFileSync(opts.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nJSON: ${path.relative(process.cwd(), opts.out)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : error);
  process.exit(1);
});
