import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import {
  freePorts,
  startProcess,
  stopProcess,
  signalGroup,
  waitFor,
  type Tracked,
} from './processes';

/**
 * A MariaDB Galera cluster on loopback from the installed packages (docs/operations.md "The
 * chaos test"): each node its own data directory, socket and ports (never 3306's server), run
 * as the `mysql` user with its data directory owned by it (as root, rsync SST fails: its daemon
 * drops to `nobody`). The first node bootstraps the cluster (`--wsrep-new-cluster`) from a fresh
 * `mariadb-install-db`; the others join with empty data directories and receive a full copy by
 * rsync SST. A node killed with SIGKILL is restarted from its recovered position
 * (`--wsrep-recover`, as `galera_recovery` does), so it catches up by IST.
 */

export const MARIADBD = '/usr/sbin/mariadbd';
export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

const isRoot = () => process.getuid?.() === 0;

/** Why a cluster cannot be started here, or null when it can. */
export function galeraMissing(): string | null {
  for (const file of [MARIADBD, GALERA_PROVIDER, INSTALL_DB, '/usr/bin/rsync']) {
    if (!fs.existsSync(file))
      return `${file} is not installed (apt-get install galera-4 mariadb-server rsync)`;
  }
  if (isRoot()) {
    try {
      execFileSync('id', ['-u', 'mysql'], { stdio: 'ignore' });
    } catch {
      return 'there is no mysql user to run the nodes as';
    }
  }
  return null;
}

/** Installs what is missing with apt-get (the chaos script; tests only report). */
export function installGalera(log: (line: string) => void): void {
  if (galeraMissing() === null) return;
  log('installing galera-4, mariadb-server and rsync with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'galera-4', 'mariadb-server', 'rsync'], {
    stdio: 'inherit',
    env,
  });
  const missing = galeraMissing();
  if (missing) throw new Error(missing);
}

function mysqlIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'mysql']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

function chownTree(dir: string): void {
  if (!isRoot()) return;
  execFileSync('chown', ['-R', 'mysql:mysql', dir]);
}

export interface NodePorts {
  sql: number;
  galera: number;
  ist: number;
  sst: number;
}

export class GaleraNode {
  process: Tracked | undefined;
  readonly dir: string;
  readonly datadir: string;
  readonly socket: string;

  constructor(
    readonly index: number,
    readonly ports: NodePorts,
    root: string,
    private readonly clusterName: string,
    private readonly peers: () => string,
  ) {
    this.dir = path.join(root, `node${index}`);
    this.datadir = path.join(this.dir, 'data');
    this.socket = path.join(this.dir, 'mariadbd.sock');
  }

  get name(): string {
    return `node${this.index}`;
  }

  /** `mysql://root@127.0.0.1:<port>/<database>` */
  url(database: string): string {
    return `mysql://root@127.0.0.1:${this.ports.sql}/${database}`;
  }

  private args(extra: readonly string[], logFile = 'error.log'): string[] {
    const { sql, galera, ist, sst } = this.ports;
    return [
      '--no-defaults',
      ...(isRoot() ? ['--user=mysql'] : []),
      `--datadir=${this.datadir}`,
      `--socket=${this.socket}`,
      `--port=${sql}`,
      '--bind-address=127.0.0.1',
      `--pid-file=${path.join(this.dir, 'mariadbd.pid')}`,
      `--log-error=${path.join(this.dir, logFile)}`,
      // Galera's requirements (docs/operations.md "Running on Galera").
      '--binlog-format=ROW',
      '--default-storage-engine=InnoDB',
      '--innodb-autoinc-lock-mode=2',
      // Small and quick: a test cluster on a shared machine. Durability comes from the cluster
      // (a commit is certified on every node before it is acknowledged).
      '--innodb-buffer-pool-size=64M',
      '--innodb-log-file-size=32M',
      '--innodb-flush-log-at-trx-commit=2',
      '--performance-schema=OFF',
      '--max-connections=400',
      '--wsrep-on=ON',
      `--wsrep-provider=${GALERA_PROVIDER}`,
      `--wsrep-cluster-name=${this.clusterName}`,
      `--wsrep-cluster-address=gcomm://${this.peers()}`,
      `--wsrep-node-name=${this.name}`,
      `--wsrep-node-address=127.0.0.1:${galera}`,
      `--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:${galera};ist.recv_addr=127.0.0.1:${ist};gcache.size=64M`,
      '--wsrep-sst-method=rsync',
      `--wsrep-sst-receive-address=127.0.0.1:${sst}`,
      '--wsrep-slave-threads=2',
      ...extra,
    ];
  }

  /** Creates the system tables (the bootstrap node only; joiners get them by SST). */
  initialise(): void {
    fs.mkdirSync(this.datadir, { recursive: true });
    chownTree(this.dir);
    execFileSync(
      INSTALL_DB,
      [
        '--no-defaults',
        ...(isRoot() ? ['--user=mysql'] : []),
        `--datadir=${this.datadir}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
      ],
      { stdio: 'ignore' },
    );
    chownTree(this.dir);
  }

  /** Starts the node: `bootstrap` starts a new cluster; else it joins (SST or IST). */
  async start(options: { bootstrap?: boolean; timeoutMs?: number } = {}): Promise<void> {
    fs.mkdirSync(this.datadir, { recursive: true });
    chownTree(this.dir);
    const extra = options.bootstrap ? ['--wsrep-new-cluster'] : [];
    const position = options.bootstrap ? null : this.recoveredPosition();
    if (position) extra.push(`--wsrep-start-position=${position}`);
    this.process = startProcess(this.name, MARIADBD, this.args(extra), {
      log: path.join(this.dir, 'stdout.log'),
    });
    const proc = this.process;
    await waitFor(
      `${this.name} to be synced with its cluster`,
      async () => {
        if (proc.done) throw new Error(`${this.name} exited (see ${this.dir}/error.log)`);
        return (await this.state()) === 'Synced';
      },
      options.timeoutMs ?? 180_000,
      500,
    ).catch((error: unknown) => {
      if (proc.done) throw new Error(`${this.name} exited: ${this.logTail()}`);
      throw error;
    });
  }

  /**
   * After a crash, the position the data directory holds (grastate.dat says -1 then), read as
   * galera_recovery does; null on a fresh data directory (a full SST follows).
   */
  private recoveredPosition(): string | null {
    const grastate = path.join(this.datadir, 'grastate.dat');
    if (!fs.existsSync(grastate) || !fs.existsSync(path.join(this.datadir, 'ibdata1'))) {
      return null;
    }
    const seqno = /seqno:\s*(-?\d+)/.exec(fs.readFileSync(grastate, 'utf8'))?.[1];
    if (seqno !== undefined && seqno !== '-1') return null;
    const log = path.join(this.dir, 'recover.log');
    fs.rmSync(log, { force: true });
    try {
      execFileSync(MARIADBD, this.args(['--wsrep-recover'], 'recover.log'), {
        stdio: 'ignore',
        timeout: 120_000,
      });
    } catch {
      return null;
    }
    const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
    return /WSREP: Recovered position: (\S+:-?\d+)/.exec(text)?.[1] ?? null;
  }

  /** `wsrep_local_state_comment` (Synced, Donor/Desynced, Joining …), null when unreachable. */
  async state(): Promise<string | null> {
    const connection = await mysql.createConnection({
      host: '127.0.0.1',
      port: this.ports.sql,
      user: 'root',
      connectTimeout: 2_000,
    });
    try {
      const [rows] = await connection.query("SHOW STATUS LIKE 'wsrep_local_state_comment'");
      const row = (rows as { Value?: string }[])[0];
      return row?.Value ?? null;
    } finally {
      await connection.end();
    }
  }

  /** SIGKILL: a crash, no shutdown of any kind. */
  kill(): void {
    if (this.process) signalGroup(this.process, 'SIGKILL');
  }

  async stop(): Promise<void> {
    if (this.process) await stopProcess(this.process, 30_000);
  }

  logTail(): string {
    const file = path.join(this.dir, 'error.log');
    if (!fs.existsSync(file)) return '(no error log)';
    return fs.readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  }
}

export interface GaleraCluster {
  nodes: GaleraNode[];
  stop(): Promise<void>;
}

/**
 * Starts `size` nodes under `root` (a directory the caller removes) and waits until each is
 * synced. On failure the nodes started are stopped before the error is thrown.
 */
export async function startGaleraCluster(root: string, size: number): Promise<GaleraCluster> {
  // The nodes run as mysql: it must reach its directories under `root` (mkdtemp makes 0700).
  fs.chmodSync(root, 0o755);
  if (isRoot()) mysqlIds();
  const all = await freePorts(size * 4);
  const ports = Array.from({ length: size }, (_, i) => ({
    sql: all[i * 4]!,
    galera: all[i * 4 + 1]!,
    ist: all[i * 4 + 2]!,
    sst: all[i * 4 + 3]!,
  }));
  const peers = () => ports.map((p) => `127.0.0.1:${p.galera}`).join(',');
  const clusterName = `chaos-${process.pid}`;
  const nodes = ports.map((p, i) => new GaleraNode(i + 1, p, root, clusterName, peers));
  const cluster: GaleraCluster = {
    nodes,
    stop: async () => {
      // Joiners first, the bootstrap node last: each leaves a cluster that stays primary.
      for (const node of [...nodes].reverse()) await node.stop();
    },
  };
  try {
    nodes[0]!.initialise();
    await nodes[0]!.start({ bootstrap: true });
    // One joiner at a time: each takes a full copy from a donor.
    for (const node of nodes.slice(1)) await node.start();
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
