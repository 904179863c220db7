import { exportStarParquet } from '../transfer';
import { JSON_OPTION, usageError, type Command } from './common';
import { rate } from './import-progress';

/**
 * `export:parquet DIR` (docs/bi.md "Parquet"): the star schema's views, every status included
 * (the export runs with the database's own rights, like a BI tool reading the views), one
 * `<relation>.parquet` file per view in DIR. One summary line per file on standard output, or
 * one JSON object with `--json`.
 */
export const exportParquetCommands: Record<string, Command> = {
  'export:parquet': {
    usage: 'DIR [--json]',
    summary:
      'Write the star schema (fact_event, dim_*, bridge_*) as one Parquet file per relation into DIR.',
    options: { ...JSON_OPTION },
    positionals: ['dir'],
    async run(ctx, values) {
      const dir = values.dir;
      if (typeof dir !== 'string' || dir === '') throw usageError('DIR is required.');
      const started = performance.now();
      const files = await exportStarParquet(ctx.db, dir);
      const seconds = (performance.now() - started) / 1000;
      const rows = files.reduce((sum, f) => sum + f.rows, 0);
      if (values.json) {
        ctx.out(
          JSON.stringify({ dir, files, rows, seconds, rows_per_second: rate(rows, seconds) }),
        );
        return;
      }
      for (const f of files) ctx.out(`${f.file}: ${f.rows.toLocaleString('en-US')} rows`);
      ctx.out(
        `export:parquet: ${files.length} files, ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s`,
      );
    },
  },
};
