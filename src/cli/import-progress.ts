import { MultiBar } from 'cli-progress';
import type { ImportProblem, ImportRow, ImportSummary } from '../transfer';
import { runningInCi } from '../config';

/**
 * Progress and reports of the import/export commands. On a terminal (standard error is a TTY)
 * a progress bar is drawn on standard error; piped or redirected, nothing is drawn and only
 * the per-line problems and the final summary are printed.
 */

export interface Progress {
  /** `value` of `total`; `rows` for the rate shown. */
  update(value: number, rows: number): void;
  /** A line for standard error, printed above the bar while one is drawn. */
  log(line: string): void;
  /** A line for standard output (a result), kept clear of the bar on standard error. */
  output(line: string): void;
  stop(): void;
}

function isInteractive(stream: NodeJS.WriteStream = process.stderr): boolean {
  return stream.isTTY === true && !runningInCi();
}

/** How often the bar is redrawn (5 a second). */
const FRAME_MS = 200;

/** A bar over `total` units (bytes of the file read, or records); rows/s since the start. */
export function progress(label: string, total: number): Progress {
  if (!isInteractive() || total <= 0) {
    return {
      update: () => undefined,
      log: (line) => console.error(line),
      output: (line) => console.log(line),
      stop: () => undefined,
    };
  }
  const started = performance.now();
  const bars = new MultiBar({
    stream: process.stderr,
    format: `${label} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}`,
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
    fps: 1000 / FRAME_MS,
  });
  const bar = bars.create(total, 0, { rows: '0', rate: '0' });
  // Drawn now and then from update() itself, not only from cli-progress's timer: an import on
  // SQLite (a synchronous driver) can keep the event loop busy for seconds, and a bar drawn
  // only when the loop is free would stand still or never appear. Drawn at the start, every
  // frame, and once when the whole file is read (however short the import).
  bars.update();
  let drawn = started;
  let drawnFull = false;
  let stopped = false;
  return {
    update(value, rows) {
      if (stopped) return;
      const now = performance.now();
      const seconds = (now - started) / 1000;
      bar.update(Math.min(value, total), {
        rows: rows.toLocaleString('en-US'),
        rate: seconds > 0 ? Math.round(rows / seconds).toLocaleString('en-US') : '0',
      });
      const full = value >= total && !drawnFull;
      if (full || now - drawn >= FRAME_MS) {
        drawn = now;
        drawnFull ||= full;
        bars.update();
      }
    },
    log(line) {
      if (stopped) console.error(line);
      else {
        bars.log(`${line}\n`);
        bars.update(); // draw now: a log just before stop() would be lost
      }
    },
    output(line) {
      // Standard output may be the same terminal: the bar is cleared around the line.
      if (!stopped && process.stdout.isTTY) {
        bars.log(`${line}\n`);
        bars.update();
      } else console.log(line);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bars.stop();
    },
  };
}

/** `FILE:LINE: column: reason` — one line per problem, on standard error, as they come. */
export function problemLine(file: string, p: ImportProblem): string {
  const where = p.column ? `${p.column}: ` : '';
  return `${file}:${p.line}: ${p.warning ? 'warning: ' : ''}${where}${p.reason}`;
}

export function rate(rows: number, seconds: number): number {
  return seconds > 0 ? Math.round(rows / seconds) : rows;
}

export function importSummaryLine(file: string, s: ImportSummary, dryRun = false): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const warnings = s.warnings ? `, ${n(s.warnings)} warning(s)` : '';
  const what = dryRun ? ' (dry run: nothing written)' : '';
  return (
    `${file}${what}: ${n(s.created)} created, ${n(s.updated)} updated, ${n(s.unchanged)} unchanged, ` +
    `${n(s.failed)} failed${warnings} (${n(s.rows)} rows in ${s.seconds.toFixed(1)} s, ` +
    `${n(rate(s.rows, s.seconds))} rows/s)`
  );
}

/** A dry run's line for one row: `FILE:LINE: updated #12 "Jazz Night"`. */
export function rowLine(file: string, row: ImportRow): string {
  const id = row.id === null ? '' : ` #${row.id}`;
  const title = row.title === null ? '' : ` ${JSON.stringify(row.title)}`;
  return `${file}:${row.line}: ${row.action}${id}${title}`;
}
