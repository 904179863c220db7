/** The run's tables: each target's medians per scenario, and ours ÷ the raw limit. */

export interface Pass {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  socket_errors: number;
  bytes_per_resp: number;
  rss_mb: number | null;
  cpu_server: number | null;
}

/** One load.mjs result file, as far as the report reads it. */
export interface LoadFile {
  scenarios: {
    id: string;
    runs: {
      rps: number;
      p50_ms: number;
      p99_ms: number;
      non2xx: number;
      socket_errors: number;
      bytes_per_resp: number;
      rss_mb: number | null;
      cpu_cores: { server: number | null };
    }[];
  }[];
}

/** passes[target][scenario]: one entry per round. */
export type Passes = Record<string, Record<string, Pass[]>>;

export function addPasses(passes: Passes, target: string, file: LoadFile): void {
  const byScenario = (passes[target] ??= {});
  for (const s of file.scenarios) {
    for (const r of s.runs) {
      (byScenario[s.id] ??= []).push({
        rps: r.rps,
        p50_ms: r.p50_ms,
        p99_ms: r.p99_ms,
        non2xx: r.non2xx,
        socket_errors: r.socket_errors,
        bytes_per_resp: r.bytes_per_resp,
        rss_mb: r.rss_mb,
        cpu_server: r.cpu_cores.server,
      });
    }
  }
}

export function median(values: number[]): number {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The highest RSS seen while `target` was under load, in MB. */
export function rssPeak(passes: Passes, target: string): number {
  const all = Object.values(passes[target] ?? {}).flatMap((list) => list.map((p) => p.rss_mb ?? 0));
  return all.length ? Math.max(...all) : NaN;
}

const num = (x: number, digits = 0) =>
  Number.isFinite(x)
    ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';

/** A markdown table: raw req/s, then per target req/s, p50 and ours ÷ raw. */
export function ratioTable(
  passes: Passes,
  scenarios: string[],
  raw: string,
  targets: string[],
): string {
  const head = ['Scenario', 'Raw req/s', 'Raw p50 ms'];
  for (const t of targets) head.push(`${t} req/s`, `${t} p50 ms`, `${t} ÷ raw`);
  const rows = [head, head.map(() => '---')];
  for (const id of scenarios) {
    const rawRps = median((passes[raw]?.[id] ?? []).map((p) => p.rps));
    const row = [id, num(rawRps), num(median((passes[raw]?.[id] ?? []).map((p) => p.p50_ms)), 2)];
    for (const t of targets) {
      const list = passes[t]?.[id] ?? [];
      const rps = median(list.map((p) => p.rps));
      row.push(num(rps), num(median(list.map((p) => p.p50_ms)), 2), num(rps / rawRps, 2));
    }
    rows.push(row);
  }
  return rows.map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** Scenarios with failed responses: such a run is not valid (load.mjs's rule). */
export function failures(passes: Passes): string[] {
  const out: string[] = [];
  for (const [target, byScenario] of Object.entries(passes)) {
    for (const [id, list] of Object.entries(byScenario)) {
      const bad = list.reduce((n, p) => n + p.non2xx + p.socket_errors, 0);
      if (bad) out.push(`${target} ${id}: ${bad} failed responses`);
    }
  }
  return out;
}
