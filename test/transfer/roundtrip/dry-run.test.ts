import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describeEachDb, type TestEnv } from '../../support/harness';
import { cli, createSample, tempDir, type Sample } from '../import-support';

/**
 * `import:csv FILE --dry-run` and `import:ics FILE --dry-run` (issue 17): what each row would do
 * (created, updated, unchanged, failed) and the totals, with nothing written — then the real
 * import does exactly what the dry run said.
 */

type Row = Record<string, string>;

/** Every table an import can write, as rows. */
async function everything(env: TestEnv): Promise<string> {
  const uids = await env.db('event_import_uids').select('*').orderBy('uid');
  return `${await env.snapshot()}\n${JSON.stringify(uids)}`;
}

describeEachDb('dry-run imports', (env) => {
  const tmp = tempDir();
  let sample: Sample;
  let rows: Row[];

  beforeAll(async () => {
    sample = await createSample(env);
    expect((await cli(env, 'export:csv', tmp.file('events.csv'))).status).toBe(0);
    expect((await cli(env, 'export:ics', tmp.file('events.ics'))).status).toBe(0);
    rows = parse(fs.readFileSync(tmp.file('events.csv')), { columns: true, bom: true }) as Row[];
  }, 60_000);
  afterAll(() => tmp.remove());

  /** The export with one changed row (a new venue too), a new row twice, and two bad rows. */
  function edited(): string {
    const byId = (id: number) => rows.find((r) => r.id === String(id))!;
    const jazz = byId(sample.jazz.id);
    const fresh = { ...jazz, id: '', global_id: 'other.example?id=9', slug: 'fresh-night' };
    const file = tmp.file('edited.csv');
    const out = [
      { ...jazz, title: 'Jazz Night (moved)', venue: 'Brand New Hall' }, // line 2
      byId(sample.fair.id), // 3
      byId(sample.offset.id), // 4
      byId(sample.secret.id), // 5
      { ...fresh, title: 'Fresh night' }, // 6
      { ...fresh, title: 'Fresh night, again' }, // 7
      { ...jazz, start_date: 'not a date' }, // 8
      { ...byId(sample.fair.id), global_id: jazz.global_id }, // 9: key and slug disagree
    ];
    fs.writeFileSync(file, stringify(out, { header: true }));
    return file;
  }

  it('import:csv --dry-run prints each row and the totals, and writes nothing', async () => {
    const file = edited();
    const before = await everything(env);
    const run = await cli(env, 'import:csv', file, '--dry-run');
    expect(run.status).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines.slice(0, -1)).toEqual([
      `${file}:2: updated #${sample.jazz.id} "Jazz Night (moved)"`,
      `${file}:3: unchanged #${sample.fair.id} "Summer Fair"`,
      `${file}:4: unchanged #${sample.offset.id} "Offset Talk"`,
      `${file}:5: unchanged #${sample.secret.id} "Secret Gig"`,
      `${file}:6: created "Fresh night"`,
      `${file}:7: updated "Fresh night, again"`,
      `${file}:8: failed "Jazz Night"`,
      `${file}:9: failed "Summer Fair"`,
    ]);
    expect(lines.at(-1)).toMatch(
      /edited\.csv \(dry run: nothing written\): 1 created, 2 updated, 3 unchanged, 2 failed \(8 rows in/,
    );
    expect(run.stderr).toMatch(/edited\.csv:8: start_date: is not a date/);
    expect(run.stderr).toMatch(
      /edited\.csv:9: the key .* names event #\d+, but the slug "summer-fair"/,
    );
    expect(run.stderr).toMatch(/2 of 8 rows failed \(see above\); the others would import\./);
    expect(await everything(env)).toBe(before);
  });

  it('--json gives one object per row, then the summary', async () => {
    const before = await everything(env);
    const run = await cli(env, 'import:csv', edited(), '--dry-run', '--json');
    const objects = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objects.slice(0, -1).map((o) => [o.line, o.action])).toEqual([
      [2, 'updated'],
      [3, 'unchanged'],
      [4, 'unchanged'],
      [5, 'unchanged'],
      [6, 'created'],
      [7, 'updated'],
      [8, 'failed'],
      [9, 'failed'],
    ]);
    expect(objects[0]).toEqual({
      line: 2,
      action: 'updated',
      id: sample.jazz.id,
      title: 'Jazz Night (moved)',
    });
    expect(objects.at(-1)).toMatchObject({
      dry_run: true,
      rows: 8,
      created: 1,
      updated: 2,
      unchanged: 3,
      failed: 2,
    });
    expect(await everything(env)).toBe(before);
  });

  it('the real import then does what the dry run said', async () => {
    const run = await cli(env, 'import:csv', edited(), '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({
      rows: 8,
      created: 1,
      updated: 2,
      unchanged: 3,
      failed: 2,
    });
    const jazz = await env.db('events').where({ id: sample.jazz.id }).first();
    expect(jazz.title).toBe('Jazz Night (moved)');
    expect(await env.db('venues').where({ title: 'Brand New Hall' }).first()).toBeDefined();
    expect(await env.db('events').where({ slug: 'fresh-night' }).pluck('title')).toEqual([
      'Fresh night, again',
    ]);
  });

  it('import:ics --dry-run: a changed summary is an update, the rest unchanged, nothing written', async () => {
    const text = fs
      .readFileSync(tmp.file('events.ics'), 'utf8')
      .replace('SUMMARY:Offset Talk', 'SUMMARY:Offset Talk (room 2)');
    fs.writeFileSync(tmp.file('edited.ics'), text);
    const before = await everything(env);
    const run = await cli(env, 'import:ics', tmp.file('edited.ics'), '--dry-run');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    // The CSV import above moved Jazz, so its row of the earlier export is an update too.
    expect(lines.filter((l) => / updated #/.test(l))).toEqual([
      expect.stringMatching(new RegExp(`: updated #${sample.jazz.id} "Jazz Night"$`)),
      expect.stringMatching(
        new RegExp(`: updated #${sample.offset.id} "Offset Talk \\(room 2\\)"$`),
      ),
    ]);
    expect(lines.at(-1)).toMatch(
      /\(dry run: nothing written\): 0 created, 2 updated, 2 unchanged, 0 failed/,
    );
    expect(await everything(env)).toBe(before);
  });
});
