import { parseArgs } from 'node:util';

/** `npm run bench -- <options>` (docs/performance.md "The benchmark"). */

export const SCENARIOS = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9'] as const;
export type CacheMode = 'off' | 'on' | 'process';

export interface BenchOptions {
  events: number;
  /** Seconds measured per scenario and pass. */
  duration: number;
  warmup: number;
  /** Rounds: each measures every target once, targets interleaved. */
  runs: number;
  connections: number;
  scenarios: string[];
  /** Our service's RESPONSE_CACHE settings to measure, each against the same raw run. */
  cache: CacheMode[];
  tool: 'wrk' | 'autocannon' | undefined;
  /** The MariaDB server both databases are created on. */
  mysqlUrl: string;
  seed: number;
  seedConcurrency: number;
  /** Seed by bulk SQL (raw) and our bulk importer instead of through the APIs. */
  direct: boolean;
  /** Keep the two databases afterwards (dropped by default). */
  keep: boolean;
  /** Names of the two databases: `<prefix>_raw`, `<prefix>_ours`. */
  databases: string;
  /**
   * The results folder of an earlier run made with `--keep` on the same `--databases`: its
   * manifests and databases are used as they are, nothing is seeded.
   */
  reuse: string | undefined;
  build: boolean;
  /** Write a V8 CPU profile of each of our servers (node --cpu-prof) into the results. */
  profile: boolean;
}

export class UsageError extends Error {}

const USAGE = `npm run bench -- [--events 1000] [--duration 10] [--warmup 2] [--runs 3]
  [--connections 8] [--scenarios S1,...,S9] [--cache off,on] [--tool wrk|autocannon]
  [--mysql-url mysql://root@127.0.0.1:3306] [--seed 42] [--seed-concurrency 4]
  [--direct] [--keep] [--databases cal_bench19] [--reuse <results dir>] [--no-build]
  [--profile]`;

function positive(name: string, raw: string, min = 1): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${raw}"\n${USAGE}`);
  }
  return value;
}

function databaseName(prefix: string): string {
  if (!/^[A-Za-z0-9_]{1,50}$/.test(prefix)) {
    throw new UsageError(`--databases takes letters, digits and _, got "${prefix}"\n${USAGE}`);
  }
  return prefix;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      events: { type: 'string', default: '1000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      runs: { type: 'string', default: '3' },
      connections: { type: 'string', default: '8' },
      scenarios: { type: 'string', default: SCENARIOS.join(',') },
      cache: { type: 'string', default: 'off,on' },
      tool: { type: 'string' },
      'mysql-url': { type: 'string', default: 'mysql://root@127.0.0.1:3306' },
      seed: { type: 'string', default: '42' },
      'seed-concurrency': { type: 'string', default: '4' },
      direct: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      databases: { type: 'string', default: 'cal_bench19' },
      reuse: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) throw new UsageError(USAGE);
  const scenarios = values.scenarios.split(',').map((s) => s.trim().toUpperCase());
  for (const s of scenarios) {
    if (!(SCENARIOS as readonly string[]).includes(s)) {
      throw new UsageError(`unknown scenario ${s}\n${USAGE}`);
    }
  }
  const cache = values.cache.split(',').map((c) => c.trim()) as CacheMode[];
  for (const c of cache) {
    if (!['off', 'on', 'process'].includes(c)) {
      throw new UsageError(`--cache takes off, on and process, got "${c}"\n${USAGE}`);
    }
  }
  const tool = values.tool;
  if (tool !== undefined && tool !== 'wrk' && tool !== 'autocannon') {
    throw new UsageError(`--tool is wrk or autocannon\n${USAGE}`);
  }
  const events = positive('events', values.events, 10);
  return {
    events,
    duration: positive('duration', values.duration),
    warmup: positive('warmup', values.warmup, 0),
    runs: positive('runs', values.runs),
    connections: positive('connections', values.connections),
    scenarios,
    cache,
    tool,
    mysqlUrl: values['mysql-url'],
    seed: positive('seed', values.seed, 0),
    seedConcurrency: positive('seed-concurrency', values['seed-concurrency']),
    // Through the APIs, 1,000,000 events would take hours on both sides.
    direct: values.direct || events > 100_000,
    keep: values.keep,
    databases: databaseName(values.databases),
    reuse: values.reuse,
    build: !values['no-build'],
    profile: values.profile,
  };
}

/** The shared harness's presets (run-all.sh): the 1k set up to 10,000 events, else the 100k set. */
export function sizesFor(events: number): Record<string, number> {
  return events <= 10_000
    ? { events, venues: 50, organizers: 30, categories: 20, tags: 40 }
    : { events, venues: 1000, organizers: 500, categories: 50, tags: 200 };
}
