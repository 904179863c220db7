import { parseArgs } from 'node:util';
import type { Dialect } from '../../src/db/knex';

/** `npm run bench -- [options]`: see docs/performance.md "The benchmark". */

export const SCENARIO_IDS = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'G1', 'W1'] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export interface BenchOptions {
  events: number;
  dbs: Dialect[];
  runs: number;
  /** Seconds per measured run. */
  duration: number;
  /** Seconds of warm-up per scenario before its runs. */
  warmup: number;
  connections: number;
  scenarios: ScenarioId[];
  fresh: boolean;
  build: boolean;
  /** MySQL server (no database) where `cal_bench_<events>` lives. */
  mysqlServer: string;
  seed: number;
  /** Where the JSON report goes. */
  out: string;
}

const USAGE = `Usage: npm run bench -- [--events 1000|100000|1000000] [--db sqlite|mysql|both]
  [--runs 3] [--duration 10] [--warmup 2] [--connections 8] [--scenarios S1,S2,...]
  [--fresh] [--no-build] [--mysql-url mysql://root@127.0.0.1:3306] [--seed 42] [--out FILE]`;

export class UsageError extends Error {}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new UsageError(`--${name} must be a positive integer, got "${raw}".\n${USAGE}`);
  }
  return Number(raw);
}

export function parseOptions(argv: string[], defaultOut: string): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      events: { type: 'string' },
      db: { type: 'string' },
      runs: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      scenarios: { type: 'string' },
      fresh: { type: 'boolean' },
      'no-build': { type: 'boolean' },
      'mysql-url': { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) throw new UsageError(USAGE);
  const db = values.db ?? 'sqlite';
  if (!['sqlite', 'mysql', 'both'].includes(db)) {
    throw new UsageError(`--db must be sqlite, mysql or both, got "${db}".\n${USAGE}`);
  }
  const scenarios = (values.scenarios ?? SCENARIO_IDS.join(','))
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');
  const unknown = scenarios.filter((s) => !(SCENARIO_IDS as readonly string[]).includes(s));
  if (unknown.length) {
    throw new UsageError(
      `Unknown scenario(s) ${unknown.join(', ')}: use ${SCENARIO_IDS.join(', ')}.`,
    );
  }
  const duration = positive('duration', values.duration, 10);
  return {
    events: positive('events', values.events, 1000),
    dbs: db === 'both' ? ['sqlite', 'mysql'] : [db as Dialect],
    runs: positive('runs', values.runs, 3),
    duration,
    warmup: values.warmup === '0' ? 0 : positive('warmup', values.warmup, Math.min(2, duration)),
    connections: positive('connections', values.connections, 8),
    scenarios: SCENARIO_IDS.filter((id) => scenarios.includes(id)),
    fresh: values.fresh ?? false,
    build: !values['no-build'],
    mysqlServer:
      values['mysql-url'] ??
      process.env.BENCH_MYSQL_URL ??
      stripDatabase(process.env.MYSQL_URL) ??
      'mysql://root@127.0.0.1:3306',
    seed: positive('seed', values.seed, 42),
    out: values.out ?? defaultOut,
  };
}

/** MYSQL_URL of the test suite names a database; the bench wants the server only. */
function stripDatabase(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const parsed = new URL(url);
  parsed.pathname = '';
  return parsed.toString().replace(/\/$/, '');
}
