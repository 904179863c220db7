import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { copyDataset, type Manifest } from './copy-dataset';
import { parseOptions, sizesFor, UsageError, type BenchOptions, type CacheMode } from './options';
import {
  buildService,
  freePort,
  runScript,
  serviceCommand,
  SHARED,
  startServer,
  type Server,
} from './processes';
import { addPasses, failures, ratioTable, rssPeak, type LoadFile, type Passes } from './report';

/**
 * `npm run bench` (docs/performance.md "The benchmark"): the shared harness (test/bench/shared,
 * a copy of ../shared/bench) against the shared raw-limit server and our service, on the local
 * MariaDB, in one run. It creates two databases, starts the raw limit and our service, seeds
 * both through their APIs with the harness's seed.mjs (records/s of each), starts one more
 * instance of ours per extra RESPONSE_CACHE setting on the same data, then runs load.mjs's
 * S1–S9 against every target, round after round (targets interleaved, so a slow moment hits
 * them all), and prints medians and each target's ratio to the raw limit.
 */

/** The two databases of a run: `<prefix>_raw` and `<prefix>_ours` (`--databases`). */
function databasesOf(prefix: string): { raw: string; ours: string } {
  return { raw: `${prefix}_raw`, ours: `${prefix}_ours` };
}
const say = (line: string) => process.stderr.write(`${line}\n`);

function yesterdayUtc(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1))
    .toISOString()
    .slice(0, 10);
}

function mariadbPid(): string | undefined {
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      return execFileSync('pidof', [name], { encoding: 'utf8' }).trim().split(/\s+/).join(',');
    } catch {
      // not running under this name
    }
  }
  return undefined;
}

async function recreateDatabases(url: string, prefix: string, drop: boolean): Promise<void> {
  const admin = await mysql.createConnection({ uri: url });
  try {
    for (const name of Object.values(databasesOf(prefix))) {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      if (!drop) {
        await admin.query(
          `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
        );
      }
    }
  } finally {
    await admin.end();
  }
}

/** MariaDB's default 128 MB buffer pool does not hold a large run's data: the run would measure the disk. */
const LARGE_BUFFER_POOL = 2 * 1024 ** 3;

async function raiseBufferPool(url: string): Promise<void> {
  const admin = await mysql.createConnection({ uri: url });
  try {
    const [[row]] = (await admin.query('SELECT @@innodb_buffer_pool_size AS size')) as unknown as [
      { size: number | string }[],
    ];
    if (Number(row?.size) >= LARGE_BUFFER_POOL) return;
    await admin.query(`SET GLOBAL innodb_buffer_pool_size = ${LARGE_BUFFER_POOL}`);
    say(`innodb_buffer_pool_size raised from ${row?.size} to ${LARGE_BUFFER_POOL} (until restart)`);
  } finally {
    await admin.end();
  }
}

function throughput(output: string): number {
  const match = /THROUGHPUT .*records\/s=([\d.]+)/.exec(output);
  return match ? Number(match[1]) : NaN;
}

async function run(opts: BenchOptions): Promise<void> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const loadBefore = os.loadavg()[0]!;
  const results = path.join(__dirname, 'results', stamp);
  fs.mkdirSync(results, { recursive: true });
  if (opts.build) buildService();
  const base = opts.mysqlUrl.replace(/\/+$/, '');
  const names = databasesOf(opts.databases);
  const rawUrl = `${base}/${names.raw}`;
  const oursUrl = `${base}/${names.ours}`;
  if (!opts.reuse) await recreateDatabases(opts.mysqlUrl, opts.databases, false);
  if (opts.events > 100_000) await raiseBufferPool(opts.mysqlUrl);
  const servers: Server[] = [];
  try {
    const rawPort = await freePort();
    const raw = await startServer(
      'raw',
      [path.join(SHARED, 'baseline', 'server.mjs'), ...(opts.reuse ? [] : ['--reset'])],
      { PORT: String(rawPort), HOST: '127.0.0.1', DB_URL: rawUrl, AUTH: 'admin:bench' },
      rawPort,
      `http://127.0.0.1:${rawPort}/api/v1/venues`,
      results,
    );
    servers.push(raw);
    const token = `bench_${randomBytes(18).toString('base64url')}`;
    const startOurs = async (mode: CacheMode): Promise<Server> => {
      const port = await freePort();
      const profile = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${results}`] : [];
      const service = serviceCommand();
      const server = await startServer(
        `ours-cache-${mode}`,
        [...profile, ...service.args],
        {
          ...service.env,
          DATABASE_URL: oursUrl,
          HOST: '127.0.0.1',
          PORT: String(port),
          SITE_URL: `http://127.0.0.1:${port}`,
          ADMIN_TOKEN: token,
          NODE_ENV: 'production',
          RESPONSE_CACHE: mode,
          WORKERS: '1',
        },
        port,
        `http://127.0.0.1:${port}/healthz`,
        results,
      );
      servers.push(server);
      return server;
    };
    const first = await startOurs(opts.cache[0]!);
    const ns = {
      raw: `http://127.0.0.1:${raw.port}/api/v1`,
      ours: (s: Server) => `http://127.0.0.1:${s.port}/wp-json/calendar/events/v1`,
    };

    // Seeding: the same generated dataset (seed, sizes, window) into each, one after the other.
    const sizes = Object.entries(sizesFor(opts.events)).flatMap(([k, v]) => [`--${k}`, String(v)]);
    const common = [
      ...sizes,
      '--seed',
      String(opts.seed),
      '--window-start',
      yesterdayUtc(),
      '--concurrency',
      String(opts.seedConcurrency),
    ];
    const manifests = {
      raw: path.join(results, 'manifest-raw.json'),
      ours: path.join(results, 'manifest-ours.json'),
    };
    let seedRates: { raw: number; ours: number; mode: string };
    if (opts.reuse) {
      // The kept databases of an earlier run (--keep) and its manifests: no seeding.
      for (const [side, file] of Object.entries(manifests)) {
        fs.copyFileSync(path.join(opts.reuse, path.basename(file)), file);
        say(`reusing ${side}: ${opts.reuse}/${path.basename(file)}`);
      }
      seedRates = { raw: NaN, ours: NaN, mode: `not measured: reused ${opts.reuse}` };
    } else if (opts.direct) {
      say(`seeding ${opts.events} events by bulk SQL into the raw limit's schema`);
      const out = await runScript(
        'seed.mjs',
        [...common, '--direct', '--manifest', manifests.raw],
        { NS_URL: ns.raw, DB_URL: rawUrl },
        path.join(results, 'seed-raw.log'),
      );
      say('copying it into ours through our bulk importer');
      const rawManifest = JSON.parse(fs.readFileSync(manifests.raw, 'utf8')) as Manifest;
      const ours = await copyDataset(rawUrl, oursUrl, rawManifest);
      fs.writeFileSync(manifests.ours, JSON.stringify(ours, null, 1));
      seedRates = {
        raw: throughput(out),
        ours: Number(ours.throughput.records_per_s),
        mode: 'bulk SQL (raw) / bulk importer (ours): not API figures',
      };
    } else {
      const rawOut = await runScript(
        'seed.mjs',
        [...common, '--manifest', manifests.raw],
        { NS_URL: ns.raw, AUTH: 'admin:bench' },
        path.join(results, 'seed-raw.log'),
      );
      const oursOut = await runScript(
        'seed.mjs',
        [...common, '--manifest', manifests.ours],
        { NS_URL: ns.ours(first), AUTH: `Bearer ${token}` },
        path.join(results, 'seed-ours.log'),
      );
      seedRates = { raw: throughput(rawOut), ours: throughput(oursOut), mode: 'through the APIs' };
    }

    const targets: { name: string; server: Server; ns: string; manifest: string }[] = [
      { name: 'raw', server: raw, ns: ns.raw, manifest: manifests.raw },
      {
        name: `cache ${opts.cache[0]}`,
        server: first,
        ns: ns.ours(first),
        manifest: manifests.ours,
      },
    ];
    for (const mode of opts.cache.slice(1)) {
      const server = await startOurs(mode);
      targets.push({
        name: `cache ${mode}`,
        server,
        ns: ns.ours(server),
        manifest: manifests.ours,
      });
    }

    const dbPid = mariadbPid();
    const passes: Passes = {};
    const tools = new Set<string>();
    for (let round = 1; round <= opts.runs; round++) {
      for (const target of targets) {
        say(`round ${round}/${opts.runs}: ${target.name}`);
        const out = path.join(results, `load-${target.server.name}-${round}.json`);
        await runScript(
          'load.mjs',
          [
            '--manifest',
            target.manifest,
            '--runs',
            '1',
            '--duration',
            String(opts.duration),
            '--warmup',
            String(opts.warmup),
            '--concurrency',
            String(opts.connections),
            '--scenarios',
            opts.scenarios.join(','),
            '--pid',
            String(target.server.pid),
            ...(dbPid ? ['--db-pid', dbPid] : []),
            ...(opts.tool ? ['--tool', opts.tool] : []),
            ...(round > 1 ? ['--no-check'] : []),
            '--label',
            target.server.name,
            '--out',
            out,
          ],
          { NS_URL: target.ns },
          path.join(results, `load-${target.server.name}-${round}.log`),
        );
        const file = JSON.parse(fs.readFileSync(out, 'utf8')) as LoadFile & { tool?: string };
        tools.add(file.tool ?? '?');
        addPasses(passes, target.name, file);
      }
    }

    const ours = targets.slice(1).map((t) => t.name);
    const lines = [
      `# npm run bench -- ${process.argv.slice(2).join(' ')}`,
      '',
      `${new Date().toISOString()}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ` +
        `load average ${loadBefore.toFixed(2)} before the run, ${os.loadavg()[0]!.toFixed(2)} after, ` +
        `Node ${process.version}; ` +
        `${opts.events.toLocaleString('en-US')} events; medians of ${opts.runs} × ${opts.duration} s, ` +
        `${opts.connections} connections, load generator ${[...tools].join(' and ')}.`,
      '',
      ratioTable(passes, opts.scenarios, 'raw', ours),
      '',
      `Seeding (${seedRates.mode}): raw ${seedRates.raw} records/s, ours ${seedRates.ours} ` +
        `records/s, ours ÷ raw ${(seedRates.ours / seedRates.raw).toFixed(2)}.`,
      '',
      `Server RSS peak under load: raw ${rssPeak(passes, 'raw').toFixed(0)} MB; ` +
        targets
          .slice(1)
          .map((t) => `ours ${t.name} ${rssPeak(passes, t.name).toFixed(0)} MB`)
          .join('; ') +
        '.',
    ];
    const invalid = failures(passes);
    if (invalid.length) lines.push('', `NOT VALID (failed responses): ${invalid.join('; ')}`);
    const summary = lines.join('\n');
    fs.writeFileSync(path.join(results, 'summary.md'), `${summary}\n`);
    fs.writeFileSync(
      path.join(results, 'summary.json'),
      JSON.stringify({ options: opts, seeding: seedRates, passes }, null, 1),
    );
    process.stdout.write(`\n${summary}\n\nresults: ${results}\n`);
  } finally {
    for (const server of servers.reverse()) await server.stop();
    if (!opts.keep && !opts.reuse) await recreateDatabases(opts.mysqlUrl, opts.databases, true);
  }
}

run(parseOptions(process.argv.slice(2))).catch((error: unknown) => {
  if (error instanceof UsageError) {
    say(error.message);
    process.exit(2);
  }
  say(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
