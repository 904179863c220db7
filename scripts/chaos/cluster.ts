import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import { installGalera, startGaleraCluster, type GaleraCluster } from './galera';
import { Ledger, runLoad } from './load';
import {
  freePorts,
  killAllNow,
  sleep,
  startProcess,
  stopAll,
  waitFor,
  type Tracked,
} from './processes';
import { startProxy, type Proxy } from './proxy';
import { sameOnEveryNode, verify } from './verify';

/**
 * `npm run chaos:cluster` (docs/operations.md "The chaos test"): a 3-node Galera cluster on
 * loopback, a Redis of its own, 3 service instances (one per node) behind a round-robin proxy;
 * a mixed write load measured with 1 instance, then with 3, then for 75 s while one database
 * node and one instance are SIGKILLed and restarted; then every acknowledged write is checked
 * against the database. Prints `acknowledged N, lost L, duplicated D`; exits 0 only when L and D
 * are 0, N ≥ 1000 and every node holds the same rows. Everything it starts lives under one
 * temporary directory and in process groups it ends on every exit path.
 */

const MIN_ACKNOWLEDGED = 1000;
/** The whole run must end within 14 minutes: give up (and clean up) before that. */
const WATCHDOG_MS = 13 * 60_000;
const CLIENTS = 8;
const REPO = path.resolve(__dirname, '..', '..');
const MAIN = path.join(REPO, 'dist', 'src', 'main.js');

const started = Date.now();
const say = (line: string) =>
  process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

let root: string | undefined;
let cleaning: Promise<void> | undefined;

function removeRoot(): void {
  if (root) fs.rmSync(root, { recursive: true, force: true });
}

/** Ends every process and removes the temporary directory (once, whatever called it). */
function cleanup(cluster?: GaleraCluster, proxy?: Proxy): Promise<void> {
  cleaning ??= (async () => {
    await proxy?.close().catch(() => {});
    // Instances and Redis first, then the database nodes (joiners before the first).
    await stopAll().catch(() => {});
    await cluster?.stop().catch(() => {});
    removeRoot();
  })();
  return cleaning;
}

// The last resort on any exit: nothing may stay behind.
process.on('exit', () => {
  killAllNow();
  removeRoot();
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    say(`${signal}: stopping everything`);
    void cleanup().finally(() => process.exit(130));
  });
}

function ensureRedis(): void {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    say('installing redis-server with apt-get');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: 'inherit', env });
  }
}

async function startRedis(dir: string): Promise<{ url: string; process: Tracked }> {
  const [port] = await freePorts(1);
  fs.mkdirSync(dir, { recursive: true });
  const proc = startProcess(
    'redis',
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { cwd: dir, log: path.join(dir, 'redis.log') },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(
    'Redis',
    async () => {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      probe.on('error', () => {});
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    },
    20_000,
  );
  return { url, process: proc };
}

interface Instance {
  port: number;
  env: NodeJS.ProcessEnv;
  log: string;
  process?: Tracked;
}

async function startInstance(instance: Instance, name: string): Promise<void> {
  instance.process = startProcess(
    name,
    process.execPath,
    // The flags of `npm start` (package.json).
    [
      '--max-semi-space-size=32',
      '--max-old-space-size=256',
      '--no-allocation-site-pretenuring',
      MAIN,
    ],
    { env: instance.env, cwd: REPO, log: instance.log },
  );
  const proc = instance.process;
  await waitFor(
    `${name} to be ready`,
    async () => {
      if (proc.done) throw new Error(`${name} exited: ${tail(instance.log)}`);
      const response = await fetch(`http://127.0.0.1:${instance.port}/readyz`);
      return response.status === 200;
    },
    120_000,
  );
}

function tail(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-10).join('\n') : '';
}

async function main(): Promise<number> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  installGalera(say);
  ensureRedis();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-chaos-'));
  say(`working in ${root}`);
  let cluster: GaleraCluster | undefined;
  let proxy: Proxy | undefined;
  const watchdog = setTimeout(() => {
    say('the run took too long: giving up');
    void cleanup(cluster, proxy).finally(() => process.exit(2));
  }, WATCHDOG_MS);
  try {
    say('starting a 3-node Galera cluster');
    cluster = await startGaleraCluster(root, 3);
    const nodes = cluster.nodes;
    say(`cluster synced: SQL ports ${nodes.map((n) => n.ports.sql).join(', ')}`);
    const admin = await mysql.createConnection({
      host: '127.0.0.1',
      port: nodes[0]!.ports.sql,
      user: 'root',
    });
    await admin.query('CREATE DATABASE calendar CHARACTER SET utf8mb4');
    await admin.end();

    const redis = await startRedis(path.join(root, 'redis'));
    say(`Redis at ${redis.url}`);

    const token = `chaos_${randomBytes(16).toString('hex')}`;
    const ports = await freePorts(nodes.length);
    const instances: Instance[] = nodes.map((node, i) => ({
      port: ports[i]!,
      log: path.join(root!, `instance${i + 1}.log`),
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        // The setting of `npm start` (package.json), as its flags below.
        MALLOC_ARENA_MAX: '2',
        NODE_ENV: 'production',
        DATABASE_URL: node.url('calendar'),
        DB_POOL_MAX: '8',
        PORT: String(ports[i]),
        HOST: '127.0.0.1',
        REDIS_URL: redis.url,
        ADMIN_TOKEN: token,
        LOG_LEVEL: 'warn',
        SITE_URL: 'http://calendar.chaos',
      },
    }));
    // The first migrates the database (and creates the administrator); then the others.
    await startInstance(instances[0]!, 'instance1');
    await Promise.all(instances.slice(1).map((inst, i) => startInstance(inst, `instance${i + 2}`)));
    say(`3 instances ready on ports ${ports.join(', ')}`);
    proxy = await startProxy(ports);
    const api = (port: number) => `http://127.0.0.1:${port}/wp-json/calendar/events/v1`;
    const ledger = new Ledger();

    say('throughput with 1 instance (15 s)');
    const one = await runLoad(ledger, {
      baseUrl: api(ports[0]!),
      token,
      clients: CLIENTS,
      durationMs: 15_000,
      phase: 'one',
    });
    say('throughput with 3 instances behind the proxy (15 s)');
    const three = await runLoad(ledger, {
      baseUrl: api(proxy.port),
      token,
      clients: CLIENTS,
      durationMs: 15_000,
      phase: 'three',
    });

    say('mixed write load for 75 s through the proxy, with failures');
    const chaos = runLoad(ledger, {
      baseUrl: api(proxy.port),
      token,
      clients: CLIENTS,
      durationMs: 75_000,
      phase: 'chaos',
    });
    await sleep(15_000);
    const victim = nodes[2]!;
    say(`SIGKILL database ${victim.name} (port ${victim.ports.sql}) and instance2`);
    victim.kill();
    instances[1]!.process!.child.kill('SIGKILL');
    await sleep(15_000);
    say(`restarting instance2 and ${victim.name}`);
    const instanceBack = startInstance(instances[1]!, 'instance2').then(() =>
      say('instance2 is back'),
    );
    const nodeBack = victim.start().then(() => say(`${victim.name} rejoined and is synced`));
    await Promise.all([instanceBack, nodeBack]);
    const chaosRate = await chaos;

    const joined = fs.readFileSync(path.join(victim.dir, 'error.log'), 'utf8');
    const how = /IST received/.test(joined.slice(joined.lastIndexOf('Recovered position')))
      ? 'IST'
      : 'SST';
    say(`${victim.name} rejoined by ${how}`);

    // Every node has applied everything before anything is read.
    for (const node of nodes) {
      await waitFor(`${node.name} synced`, async () => (await node.state()) === 'Synced', 60_000);
    }
    const connections = await Promise.all(
      nodes.map((node) =>
        mysql.createConnection({
          host: '127.0.0.1',
          port: node.ports.sql,
          user: 'root',
          database: 'calendar',
        }),
      ),
    );
    let sums: string[] = [];
    for (let i = 0; i < 20; i++) {
      // wsrep_sync_wait: each read waits until its node has applied every earlier commit.
      await Promise.all(connections.map((c) => c.query('SET SESSION wsrep_sync_wait = 1')));
      sums = await sameOnEveryNode(connections);
      if (new Set(sums).size === 1) break;
      await sleep(500);
    }
    const verdict = await verify(connections[0]!, ledger);
    await Promise.all(connections.map((c) => c.end()));

    const statuses = [...ledger.statuses].map(([s, n]) => `${s}: ${n}`).join(', ');
    say(`answers: ${statuses}; writes of unknown outcome: ${ledger.unknown}`);
    for (const line of verdict.details) say(line);
    const consistent = new Set(sums).size === 1;
    if (!consistent) say(`nodes differ: ${sums.join(' | ')}`);
    process.stdout.write(
      `throughput: 1 instance ${one.toFixed(1)} writes/s, 3 instances ${three.toFixed(1)} writes/s, during failures ${chaosRate.toFixed(1)} writes/s\n`,
    );
    process.stdout.write(
      `acknowledged ${verdict.acknowledged}, lost ${verdict.lost}, duplicated ${verdict.duplicated}\n`,
    );
    const ok =
      verdict.lost === 0 &&
      verdict.duplicated === 0 &&
      verdict.acknowledged >= MIN_ACKNOWLEDGED &&
      consistent;
    if (verdict.acknowledged < MIN_ACKNOWLEDGED) {
      say(`fewer than ${MIN_ACKNOWLEDGED} acknowledged writes: the run proves too little`);
    }
    return ok ? 0 : 1;
  } catch (error) {
    say(`failed: ${error instanceof Error ? error.stack : String(error)}`);
    return 1;
  } finally {
    clearTimeout(watchdog);
    say('stopping instances, Redis and the cluster; removing the working directory');
    await cleanup(cluster, proxy);
    say(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

void main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`failed: ${String(error)}`);
    void cleanup().finally(() => process.exit(1));
  },
);
