import fs from 'node:fs';
import type { Config } from '../config';
import {
  csvColumnOf,
  csvRecords,
  icsColumnOf,
  icsRecords,
  importEvents,
  type ImportItem,
  type ImportSummary,
} from '../transfer';
import {
  CliError,
  EXIT,
  JSON_OPTION,
  usageError,
  type Command,
  type CommandContext,
} from './common';
import { importSummaryLine, problemLine, progress, rate, rowLine } from './import-progress';

/**
 * `import:csv FILE` and `import:ics FILE` (docs/import-export.md): events from a file,
 * streamed, through the import engine (`src/transfer/import-events.ts`). Problems go to
 * standard error as `FILE:LINE: column: reason` while the good rows import; the summary goes
 * to standard output (`--json`: as JSON). `--dry-run` writes nothing and prints, before the
 * summary, what each row would do (`FILE:LINE: created|updated|unchanged|failed [#id] "title"`).
 * Exit code 0 when every row imported, 1 when some failed (or the file could not be read at
 * all), 2 for usage errors.
 */

function readableFile(values: Record<string, unknown>): string {
  const file = values.file;
  if (typeof file !== 'string' || file === '') throw usageError('FILE is required.');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw usageError(`${file}: no such file.`);
  }
  if (!stat.isFile()) throw usageError(`${file}: not a file.`);
  return file;
}

type Reader = (
  config: Config,
  file: string,
  onBytes: (bytes: number) => void,
) => AsyncIterable<ImportItem>;

async function runImport(
  { db, config, now, out }: CommandContext,
  values: Record<string, string | boolean | undefined>,
  label: string,
  read: Reader,
  columnOf: (field: string) => string,
): Promise<void> {
  const file = readableFile(values);
  const dryRun = values['dry-run'] === true;
  const bar = progress(label, fs.statSync(file).size);
  let bytes = 0;
  let summary: ImportSummary;
  try {
    summary = await importEvents(
      db,
      config,
      moving(
        read(config, file, (b) => (bytes = b)),
        (rows) => bar.update(bytes, rows),
      ),
      {
        now,
        columnOf,
        dryRun,
        onProblem: (p) => bar.log(problemLine(file, p)),
        onProgress: (s) => bar.update(bytes, s.rows),
        // A dry run says what it would do to each row (JSON: one object per line).
        onRow: dryRun
          ? (row) => bar.output(values.json ? JSON.stringify(row) : rowLine(file, row))
          : undefined,
      },
    );
  } finally {
    bar.stop();
  }
  const rowsPerSecond = rate(summary.rows, summary.seconds);
  if (values.json) {
    out(
      JSON.stringify({
        file,
        ...(dryRun ? { dry_run: true } : {}),
        ...summary,
        rows_per_second: rowsPerSecond,
      }),
    );
  } else {
    out(importSummaryLine(file, summary, dryRun));
  }
  if (summary.failed > 0) {
    const rest = dryRun ? 'the others would import.' : 'the others were imported.';
    throw new CliError(
      EXIT.other,
      `${summary.failed.toLocaleString('en-US')} of ${summary.rows.toLocaleString('en-US')} rows failed (see above); ${rest}`,
    );
  }
}

/** Items as they are read, the bar moved every `PROGRESS_EVERY` (cli-progress draws 5 a second). */
async function* moving<T>(items: AsyncIterable<T>, onRows: (rows: number) => void) {
  let rows = 0;
  for await (const item of items) {
    if (++rows % PROGRESS_EVERY === 0) onRows(rows);
    yield item;
  }
}

const PROGRESS_EVERY = 50;

/** An import command: read FILE with `read`, report problems in the file's own column names. */
function importCommand(
  name: string,
  summary: string,
  read: Reader,
  columnOf: (field: string) => string,
): Command {
  return {
    usage: 'FILE [--dry-run] [--json]',
    summary,
    options: { 'dry-run': { type: 'boolean' }, ...JSON_OPTION },
    positionals: ['file'],
    run: (ctx, values) => runImport(ctx, values, name, read, columnOf),
  };
}

export const importCommands: Record<string, Command> = {
  'import:csv': importCommand(
    'import:csv',
    'Import events from a CSV file (the export:csv columns): a row updates the event its global_id (else slug) names, unless it changes nothing; others create. --dry-run: say what would change, write nothing.',
    (config, file, onBytes) => csvRecords(config, file, onBytes),
    csvColumnOf,
  ),
  'import:ics': importCommand(
    'import:ics',
    "Import the events of an iCalendar file: a UID already imported, or one of this site's, updates that event (unless nothing changes). --dry-run: say what would change, write nothing.",
    (config, file, onBytes) => icsRecords(config, file, onBytes),
    icsColumnOf,
  ),
};
