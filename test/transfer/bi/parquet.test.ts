import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { STAR_RELATIONS } from '../../../src/transfer/parquet/relations';
import { describeEachDb } from '../../support/harness';
import { cli, tempDir } from '../import-support';
import { countOf, createStarSample, STAR_VIEWS, type StarSample } from './star-support';

/**
 * `calendar export:parquet DIR` (docs/bi.md "Parquet"), run as a real process (hyparquet-writer
 * is an ES module, which the CLI loads and Jest's module system does not), then read back by
 * DuckDB and, where Python has pandas and pyarrow, by pandas: one file per star relation, the
 * views' row counts, Parquet types BI tools understand, and values.
 */

const root = path.join(__dirname, '..', '..', '..');
const tsx = require.resolve('tsx/cli');

const hasPandas =
  spawnSync('python3', ['-c', 'import pandas, pyarrow'], { encoding: 'utf8' }).status === 0;

/** `{relation: rows}` and a few values, as pandas reads the files. */
const PANDAS_READ = `
import json, sys, pandas
out = {}
for name in sys.argv[2:]:
    out[name] = len(pandas.read_parquet(sys.argv[1] + '/' + name + '.parquet'))
fact = pandas.read_parquet(sys.argv[1] + '/fact_event.parquet')
jazz = fact[fact.title == 'Jazz Night'].iloc[0]
print(json.dumps({'counts': out, 'jazz_start': str(jazz.start_date)}))
`;

describeEachDb('export:parquet', (env) => {
  const tmp = tempDir();
  const dir = path.join(tmp.dir, 'star');
  let s: StarSample;
  let duck: DuckDBConnection;
  let run: { status: number | null; stdout: string; stderr: string };

  /** Rows of a query over the exported files (`{dir}` stands for the folder), as JSON values. */
  const query = async (sql: string) =>
    (await duck.runAndReadAll(sql.replaceAll('{dir}', dir))).getRowObjectsJson();

  beforeAll(async () => {
    s = await createStarSample(env);
    const result = spawnSync(
      process.execPath,
      [tsx, path.join(root, 'src/cli/index.ts'), 'export:parquet', dir, '--json'],
      {
        cwd: tmp.dir,
        env: { ...process.env, DATABASE_URL: env.config.databaseUrl },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    run = { status: result.status, stdout: result.stdout, stderr: result.stderr };
    duck = await (await DuckDBInstance.create(':memory:')).connect();
  }, 90_000);

  afterAll(() => {
    duck?.closeSync();
    tmp.remove();
  });

  it('writes one file per star relation and says how many rows each has', async () => {
    expect(run).toMatchObject({ status: 0 });
    expect(fs.readdirSync(dir).sort()).toEqual(STAR_VIEWS.map((v) => `${v}.parquet`).sort());
    const summary = JSON.parse(run.stdout.trim().split('\n').pop()!);
    for (const view of STAR_VIEWS) {
      const file = summary.files.find((f: { relation: string }) => f.relation === view);
      expect({ view, rows: file.rows }).toEqual({ view, rows: await countOf(env, view) });
    }
  });

  it('DuckDB reads every file: the views’ row counts and their columns', async () => {
    for (const relation of STAR_RELATIONS) {
      const [row] = await query(
        `SELECT COUNT(*) AS n FROM read_parquet('{dir}/${relation.name}.parquet')`,
      );
      expect({ relation: relation.name, rows: Number(row!.n) }).toEqual({
        relation: relation.name,
        rows: await countOf(env, relation.name),
      });
      const columns = await query(
        `DESCRIBE SELECT * FROM read_parquet('{dir}/${relation.name}.parquet')`,
      );
      expect(columns.map((c) => c.column_name)).toEqual(Object.keys(relation.columns));
    }
    const types = await query(`SELECT column_name, column_type
      FROM (DESCRIBE SELECT * FROM read_parquet('{dir}/fact_event.parquet'))
     WHERE column_name IN ('event_id', 'title', 'start_date', 'utc_start_date', 'all_day')`);
    expect(Object.fromEntries(types.map((t) => [t.column_name, t.column_type]))).toEqual({
      event_id: 'BIGINT',
      title: 'VARCHAR',
      start_date: 'TIMESTAMP',
      utc_start_date: 'TIMESTAMP WITH TIME ZONE',
      all_day: 'BOOLEAN',
    });
  });

  it('DuckDB reads the values: local and UTC times, nulls, every status', async () => {
    const [jazz] = await query(`SELECT title, status, epoch_ms(start_date) AS local_ms,
           epoch_ms(utc_start_date) AS utc_ms, start_date_key, organizer_count, featured, parent_id
      FROM read_parquet('{dir}/fact_event.parquet') WHERE event_id = ${s.jazz.id}`);
    expect(jazz).toEqual({
      title: 'Jazz Night',
      status: 'publish',
      local_ms: String(Date.UTC(2027, 2, 10, 19, 0)),
      utc_ms: String(Date.UTC(2027, 2, 11, 0, 0)),
      start_date_key: '20270310',
      organizer_count: '2',
      featured: true,
      parent_id: null,
    });
    const statuses = await query(`SELECT status, COUNT(*) AS n
      FROM read_parquet('{dir}/fact_event.parquet') GROUP BY status ORDER BY status`);
    expect(statuses.map((r) => [r.status, Number(r.n)])).toEqual([
      ['draft', 1],
      ['pending', 1],
      ['private', 1],
      ['publish', 4],
      ['trash', 1],
    ]);
    const [venue] = await query(`SELECT name, geo_lat FROM read_parquet('{dir}/dim_venue.parquet')
      WHERE name = 'Main Hall'`);
    expect(venue!.geo_lat).toBeCloseTo(39.7817, 6);
    const [day] = await query(`SELECT CAST(date AS VARCHAR) AS date, is_weekend
      FROM read_parquet('{dir}/dim_date.parquet') WHERE date_key = 20280101`);
    expect(day).toEqual({ date: '2028-01-01', is_weekend: true });
  });

  it('joins in DuckDB as in the database: published events per month and venue', async () => {
    const rows = await query(`SELECT d.year, d.month, v.name AS venue, COUNT(*) AS events
      FROM read_parquet('{dir}/fact_event.parquet') f
      JOIN read_parquet('{dir}/dim_date.parquet') d ON d.date_key = f.start_date_key
      LEFT JOIN read_parquet('{dir}/dim_venue.parquet') v ON v.venue_id = f.venue_id
     WHERE f.status = 'publish'
     GROUP BY d.year, d.month, v.name ORDER BY d.year, d.month, v.name`);
    expect(rows.map((r) => [Number(r.year), Number(r.month), r.venue, Number(r.events)])).toEqual([
      [2027, 1, 'Main Hall', 1],
      [2027, 2, 'Main Hall', 1],
      [2027, 3, 'Main Hall', 1],
      [2031, 6, 'Riverside', 1],
    ]);
  });

  it('without DIR is a usage error (exit 2) and writes nothing', async () => {
    const before = fs.readdirSync(tmp.dir).sort();
    const usage = await cli(env, 'export:parquet');
    expect(usage).toMatchObject({ status: 2, stderr: 'export:parquet: DIR is required.\n' });
    expect(fs.readdirSync(tmp.dir).sort()).toEqual(before);
  });

  (hasPandas ? it : it.skip)('pandas (pyarrow) reads every file', async () => {
    const result = spawnSync('python3', ['-c', PANDAS_READ, dir, ...STAR_VIEWS], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout);
    for (const view of STAR_VIEWS) expect(out.counts[view]).toBe(await countOf(env, view));
    expect(out.jazz_start).toBe('2027-03-10 19:00:00');
  });
});
