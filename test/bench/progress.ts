/**
 * A progress line for long imports: redrawn in place on a terminal (at most 10 times a second),
 * silent on pipes and CI logs, which get one summary line at the end. Hand-written because the
 * harness may add only its load generator as a dependency.
 */

export interface Progress {
  update(done: number): void;
  /** Prints the summary; returns the rate per second. */
  finish(done: number): number;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function progress(label: string, total: number, out = process.stderr): Progress {
  const started = performance.now();
  let drawn = 0;
  const tty = out.isTTY === true;
  const seconds = () => (performance.now() - started) / 1000;
  return {
    update(done) {
      if (!tty || performance.now() - drawn < 100) return;
      drawn = performance.now();
      const share = total ? done / total : 0;
      const bar = '█'.repeat(Math.round(share * 30)).padEnd(30, '░');
      const rate = done / Math.max(seconds(), 1e-3);
      out.write(
        `\r  ${label} ${bar} ${(share * 100).toFixed(0).padStart(3)}%  ${fmt(done)}/${fmt(total)}  ${fmt(rate)}/s  `,
      );
    },
    finish(done) {
      const s = seconds();
      const rate = done / Math.max(s, 1e-3);
      if (tty) out.write('\r\x1b[2K');
      out.write(`  ${label}: ${fmt(done)} in ${s.toFixed(1)} s (${fmt(rate)}/s)\n`);
      return rate;
    },
  };
}
