import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describeEachDb, TestEnv } from '../../support/harness';
import { cli, createSample, tempDir } from '../import-support';
import { createHostile, HOSTILE } from './roundtrip-support';

/**
 * Export → import into an EMPTY calendar → export again (issue 17): the same file, up to the
 * columns the target generates (ids, modification times); hostile names — quotes, commas,
 * semicolons, newlines, formula prefixes, non-Latin scripts, emoji — survive both ways, in CSV
 * and in iCalendar.
 */

/** CSV rows without the generated columns. */
function csvWithoutGenerated(file: string): Record<string, string>[] {
  const rows = parse(fs.readFileSync(file), { columns: true, bom: true }) as Record<
    string,
    string
  >[];
  for (const row of rows) {
    delete row.id;
    delete row.modified_utc;
  }
  return rows;
}

/** iCalendar lines, unfolded, without the stamps of the modification time. */
function icsWithoutGenerated(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8').replace(/\r\n[ \t]/g, '');
  return text.split('\r\n').filter((line) => !/^(DTSTAMP|LAST-MODIFIED|SEQUENCE)[:;]/.test(line));
}

/** Hostile names arrive in the target exactly as they were written. */
async function hostileNamesArrive(target: TestEnv): Promise<void> {
  const stored = async (table: string, column = 'title') =>
    (await target.db(table).pluck(column)) as string[];
  expect(await stored('events')).toEqual(expect.arrayContaining(HOSTILE.titles));
  expect(await stored('venues')).toEqual(expect.arrayContaining(HOSTILE.venues));
  expect(await stored('organizers')).toEqual(expect.arrayContaining(HOSTILE.organizers));
  const terms = await stored('terms', 'name');
  expect(terms).toEqual(expect.arrayContaining([...HOSTILE.categories, ...HOSTILE.tags]));
}

describeEachDb('round trips through an empty calendar', (env) => {
  const tmp = tempDir();

  beforeAll(async () => {
    await createSample(env);
    await createHostile(env);
    expect((await cli(env, 'seed:demo', '--events', '20', '--seed', '5')).status).toBe(0);
  }, 120_000);
  afterAll(() => tmp.remove());

  async function through(
    format: 'csv' | 'ics',
    check: (target: TestEnv) => Promise<void> = async () => undefined,
  ) {
    const first = tmp.file(`first-${env.dialect}.${format}`);
    const second = tmp.file(`second-${env.dialect}.${format}`);
    expect((await cli(env, `export:${format}`, first)).status).toBe(0);
    const target = new TestEnv(env.dialect);
    await target.start();
    try {
      const run = await cli(target, `import:${format}`, first, '--json');
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toMatchObject({ updated: 0, unchanged: 0, failed: 0 });
      expect((await cli(target, `export:${format}`, second)).status).toBe(0);
      await check(target);
      // And once more into the target: its own export changes nothing there.
      const again = await cli(target, `import:${format}`, second, '--json');
      expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: 0, failed: 0 });
    } finally {
      await target.stop();
    }
    return { first, second };
  }

  it('CSV: export → import into an empty calendar → export gives the same file', async () => {
    const { first, second } = await through('csv', hostileNamesArrive);
    const text = fs.readFileSync(first, 'utf8');
    // The formula prefixes were neutralised in the file, semicolons in names escaped.
    expect(text).toContain(`'=HYPERLINK(""http://evil.example"",""click"")`);
    expect(text).toContain('semi\\;colon');
    expect(csvWithoutGenerated(second)).toEqual(csvWithoutGenerated(first));
  }, 120_000);

  it('iCalendar: export → import into an empty calendar → export gives the same file', async () => {
    const { first, second } = await through('ics', hostileNamesArrive);
    const lines = icsWithoutGenerated(first);
    expect(lines.filter((l) => l.startsWith('BEGIN:VEVENT')).length).toBeGreaterThan(30);
    expect(icsWithoutGenerated(second)).toEqual(lines);
  }, 120_000);
});
