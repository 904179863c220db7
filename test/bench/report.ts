import type { Dialect } from '../../src/db/knex';
import type { LoadResult } from './load';
import type { ScenarioId } from './options';

/** What a run measured, as a table on the terminal and as JSON. */

export interface ScenarioResult {
  db: Dialect;
  id: ScenarioId;
  title: string;
  /** `ok`, or why the scenario was not measured (`n/a (route missing)`…). */
  status: string;
  /** Medians over the runs. */
  rps: number | null;
  p50: number | null;
  p99: number | null;
  queries: number | null;
  rssMb: number | null;
  raw: { rps: number; p50: number; p99: number } | null;
  /** rps / raw rps. */
  ratio: number | null;
  /** Non-2xx responses, errors and timeouts over all runs. */
  failures: number;
  /** Whether the body equals the raw baseline's (`null`: not compared). */
  sameJson: boolean | null;
  notes: string[];
  runs: LoadResult[];
  rawRuns: LoadResult[];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function num(value: number | null, digits = 0): string {
  if (value === null) return '–';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export function table(results: ScenarioResult[]): string {
  const head = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'queries',
    'RSS MB',
    'raw req/s',
    'ratio',
    'notes',
  ];
  const rows = results.map((r) =>
    r.status !== 'ok'
      ? [`${r.id} ${r.title}`, r.status, '', '', '', '', '', '', '']
      : [
          `${r.id} ${r.title}`,
          num(r.rps),
          num(r.p50, 1),
          num(r.p99, 1),
          num(r.queries),
          num(r.rssMb),
          num(r.raw?.rps ?? null),
          r.ratio === null ? '–' : `${Math.round(r.ratio * 100)}%`,
          r.notes.join('; '),
        ],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** First path where two JSON values differ, or null when equal (key order included). */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (
    typeof a !== typeof b ||
    Array.isArray(a) !== Array.isArray(b) ||
    (a === null) !== (b === null)
  ) {
    return path;
  }
  if (a === null || typeof a !== 'object') return a === b ? null : path;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return `${path}.length`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], bb[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    if (ka[i] !== kb[i]) return `${path} keys (${ka[i] ?? '∅'} vs ${kb[i] ?? '∅'})`;
    const d = firstDifference(
      (a as Record<string, unknown>)[ka[i]!],
      (b as Record<string, unknown>)[kb[i]!],
      `${path}.${ka[i]}`,
    );
    if (d) return d;
  }
  return null;
}
