import { spawnSync } from 'node:child_process';
import { TestEnv } from '../../support/harness';
import { cli } from '../import-support';
import { countOf, createStarSample, REPORT_VIEWS, STAR_VIEWS } from './star-support';

/**
 * The SQLite file opens in readers older than SQLite 3.44 (issue 17 item 3, docs/bi.md "SQLite
 * compatibility"): Debian's sqlite3 CLI (3.40 on Debian 12) and Python's sqlite3 module each list
 * the views from sqlite_master themselves, so a view added later is counted too, and count the
 * rows of every one; the counts match the service's own.
 */

const SQLITE3 = '/usr/bin/sqlite3';

/** `{view: rows}` for every view of the file, as Python's sqlite3 module reads it. */
const PYTHON_COUNTS = `
import json, sqlite3, sys
db = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
views = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")]
counts = {v: db.execute('SELECT COUNT(*) FROM "%s"' % v).fetchone()[0] for v in views}
print(json.dumps({'version': sqlite3.sqlite_version, 'counts': counts}))
`;

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) {
    throw new Error(`${command} failed (${result.status}): ${result.stderr || result.error}`);
  }
  return result.stdout;
}

describe('the SQLite file in readers older than SQLite 3.44', () => {
  const env = new TestEnv('sqlite');
  let file: string;
  let expected: Record<string, number>;

  beforeAll(async () => {
    await env.start();
    file = env.config.databaseUrl.replace(/^sqlite:/, '');
    await createStarSample(env);
    // Demo events on top: venues, organizers and terms in numbers.
    expect((await cli(env, 'seed:demo', '--events', '120')).status).toBe(0);
    expected = {};
    for (const view of [...STAR_VIEWS, ...REPORT_VIEWS]) expected[view] = await countOf(env, view);
  }, 60_000);

  afterAll(() => env.stop());

  it(`${SQLITE3} opens the file and counts every view`, () => {
    const version = run(SQLITE3, ['--version']).split(' ')[0];
    const views = run(SQLITE3, [
      '-readonly',
      file,
      "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name",
    ])
      .split('\n')
      .filter(Boolean);
    expect(views).toEqual(Object.keys(expected).sort());
    const sql = views.map((v) => `SELECT '${v}', COUNT(*) FROM "${v}";`).join('\n');
    const counts = Object.fromEntries(
      run(SQLITE3, ['-readonly', file, sql])
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [view, n] = line.split('|');
          return [view!, Number(n)];
        }),
    );
    expect({ version, counts }).toEqual({ version, counts: expected });
    expect(counts.fact_event).toBe(128);
  });

  it("Python's sqlite3 module opens the file and counts every view", () => {
    const out = JSON.parse(run('python3', ['-c', PYTHON_COUNTS, file]));
    expect(out.counts).toEqual(expected);
    expect(out.counts.dim_date).toBeGreaterThan(1000);
  });
});
