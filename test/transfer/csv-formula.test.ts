import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import type { Column } from '../../src/transfer/csv/columns';
import { escapeFormula, unescapeFormula } from '../../src/transfer/csv/formula';
import { csvRecords } from '../../src/transfer/csv/import';
import { csvText } from '../../src/transfer/csv/write';
import type { ImportItem, ImportRecord } from '../../src/transfer/import/records';
import { loadConfig } from '../../src/config/config';
import { describeEachDb, TestEnv } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';
import { cli, tempDir } from './import-support';

/**
 * CSV formula injection (issue 16): every CSV writer puts `'` before a text cell beginning with
 * `=`, `+`, `-`, `@`, tab or CR (and before one already beginning with quotes and one of those),
 * and `import:csv` takes it off again, so export → import is the identity for every string.
 */

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];
const HOSTILE = ['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)'];

/** Strings biased towards the prefixes that matter: quotes and trigger characters first. */
const text = fc
  .tuple(
    fc.array(fc.constantFrom("'", ...TRIGGERS), { maxLength: 4 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
  )
  .map(([prefix, rest]) => prefix.join('') + rest);

const tmp = tempDir();
afterAll(() => tmp.remove());

describe('the formula rule', () => {
  it('round-trips every string, and no escaped cell starts a formula', () => {
    fc.assert(
      fc.property(text, (s) => {
        const cell = escapeFormula(s);
        expect(unescapeFormula(cell)).toBe(s);
        expect(TRIGGERS).not.toContain(cell[0]);
      }),
      { numRuns: 2000 },
    );
  });

  it('quotes the documented cases', () => {
    expect(HOSTILE.map(escapeFormula)).toEqual([
      `'=HYPERLINK("http://x")`,
      "'+1",
      "'-2",
      "'@SUM(A1)",
    ]);
    expect(escapeFormula('\tx')).toBe("'\tx");
    expect(escapeFormula('\rx')).toBe("'\rx");
    expect(escapeFormula("'=x")).toBe("''=x");
    expect(escapeFormula("'x")).toBe("'x");
    expect(escapeFormula('a=b')).toBe('a=b');
    expect(unescapeFormula("'x")).toBe("'x");
  });

  it('round-trips through the CSV writer and the importer (csv-stringify → csv-parse)', async () => {
    const config = loadConfig({
      SITE_URL: 'http://calendar.test',
      DATABASE_URL: 'sqlite::memory:',
    });
    const columns: Column<{ title: string; venue: string }>[] = [
      { name: 'title', value: (r) => r.title },
      { name: 'start_date', value: () => '2027-01-01 10:00:00' },
      { name: 'end_date', value: () => '2027-01-01 11:00:00' },
      { name: 'venue', value: (r) => r.venue },
      { name: 'venue_lng', value: () => -89.6501 },
    ];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 20 }),
        async (pairs) => {
          const rows = pairs.map(([title, venue]) => ({ title, venue }));
          const file = tmp.file(`rows-${run++}.csv`);
          fs.writeFileSync(file, csvText(columns, rows, true));
          const raw = parse(fs.readFileSync(file), { columns: true }) as Record<string, string>[];
          for (const cell of raw.flatMap((r) => [r.title!, r.venue!])) {
            expect(TRIGGERS).not.toContain(cell[0]);
          }
          // Numbers are written as they are.
          expect(raw.every((r) => r.venue_lng === '-89.6501')).toBe(true);
          const items: ImportItem[] = [];
          for await (const item of csvRecords(config, file)) items.push(item);
          const records = items as ImportRecord[];
          expect(records.map((r) => r.fields.title)).toEqual(rows.map((r) => r.title));
          // Venue names are trimmed on import, as every import field but the title.
          const venues = records.map((r) => r.venue?.venue ?? '');
          expect(venues).toEqual(rows.map((r) => r.venue.trim()));
        },
      ),
      { numRuns: 200 },
    );
  });
});

const CREATE = `mutation ($input: EventInput!) { create_event(input: $input) { id } }`;

describeEachDb('CSV formula injection', (env) => {
  const rest = new RestClient(env);
  const ids: number[] = [];
  const titles = [...HOSTILE, "'=already quoted"];

  beforeAll(async () => {
    for (const [i, title] of titles.entries()) {
      const input = {
        title,
        start_date: `2027-04-0${i + 1} 10:00:00`,
        end_date: `2027-04-0${i + 1} 11:00:00`,
        venue: { venue: `${title} hall`, phone: '+1 555 0100' },
        organizer: [{ organizer: `-${title} crew` }],
      };
      const made = await env.ok(CREATE, { input }, { as: 'administrator' });
      ids.push((made.create_event as { id: number }).id);
    }
  });

  function raw(csv: string): Record<string, string>[] {
    return parse(csv, { columns: true, bom: true }) as Record<string, string>[];
  }

  it('CSV over HTTP neutralises titles, venue and organizer names', async () => {
    const events = raw((await rest.get('/events?format=csv')).text);
    expect(events.map((e) => e.title)).toEqual(titles.map((t) => `'${t}`));
    expect(events.map((e) => e.venue)).toEqual(
      titles.map((t) => (t.startsWith("'") ? `''${t.slice(1)} hall` : `'${t} hall`)),
    );
    expect(events.every((e) => e.venue_phone === "'+1 555 0100")).toBe(true);
    expect(events.map((e) => e.organizers)).toEqual(titles.map((t) => `'-${t} crew`));
    const venues = raw((await rest.get('/venues?format=csv')).text);
    expect(venues.map((v) => v.venue).sort()).toEqual(events.map((e) => e.venue).sort());
    const organizers = raw((await rest.get('/organizers?format=csv')).text);
    expect(organizers.every((o) => o.organizer!.startsWith("'-"))).toBe(true);
  });

  it('export:csv neutralises them, and import:csv brings back the same names', async () => {
    const file = tmp.file(`events-${env.dialect}.csv`);
    expect((await cli(env, 'export:csv', file)).status).toBe(0);
    const events = raw(fs.readFileSync(file, 'utf8'));
    expect(events.map((e) => e.title)).toEqual(titles.map((t) => `'${t}`));
    const target = new TestEnv(env.dialect);
    await target.start();
    try {
      const run = await cli(target, 'import:csv', file, '--json');
      expect(JSON.parse(run.stdout)).toMatchObject({ created: titles.length, failed: 0 });
      const back = await target.db('events').orderBy('start_date').pluck('title');
      expect(back).toEqual(titles);
      const halls = await target.db('venues').orderBy('title').pluck('title');
      expect(halls).toEqual(titles.map((t) => `${t} hall`).sort());
      const phones = await target.db('venues').distinct().pluck('phone');
      expect(phones).toEqual(['+1 555 0100']);
      const crews = await target.db('organizers').orderBy('title').pluck('title');
      expect(crews).toEqual(titles.map((t) => `-${t} crew`).sort());
    } finally {
      await target.stop();
    }
  }, 60_000);

  it('neutralises a leading tab or CR, which import reads back as written', async () => {
    // The write rules trim names, so only data from elsewhere (an older import, SQL) has them.
    await env.db('events').where({ id: ids[0] }).update({ title: '\tx' });
    await env.db('events').where({ id: ids[1] }).update({ title: '\rx' });
    const http = raw((await rest.get('/events?format=csv')).text);
    expect(http.slice(0, 2).map((e) => e.title)).toEqual(["'\tx", "'\rx"]);
    const file = tmp.file(`controls-${env.dialect}.csv`);
    expect((await cli(env, 'export:csv', file)).status).toBe(0);
    const items: ImportItem[] = [];
    for await (const item of csvRecords(env.config, file)) items.push(item);
    const read = (items as ImportRecord[]).map((r) => r.fields.title);
    expect(read.slice(0, 2)).toEqual(['\tx', '\rx']);
  });
});
