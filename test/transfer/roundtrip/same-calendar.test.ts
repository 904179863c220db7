import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describeEachDb } from '../../support/harness';
import { cli, createSample, tempDir, type Sample } from '../import-support';
import { createHostile, restDump } from './roundtrip-support';

/**
 * Export → import into the SAME calendar (issue 17): every row finds its own event, an unchanged
 * row writes nothing (a REST dump of every record is identical), a changed row updates that
 * event only, and a row whose key and slug disagree fails without writing.
 */

const FOREIGN_ICS = path.join(__dirname, '..', '..', 'fixtures', 'ics', 'foreign.ics');

type Row = Record<string, string> & { global_id: string };

function readCsv(file: string): Row[] {
  return parse(fs.readFileSync(file), { columns: true, bom: true }) as Row[];
}

function writeCsv(file: string, rows: Record<string, string>[]): void {
  fs.writeFileSync(file, stringify(rows, { header: true }));
}

describeEachDb('round trips into the same calendar', (env) => {
  const tmp = tempDir();
  let sample: Sample;
  let before: Record<string, unknown>;
  let total: number;

  beforeAll(async () => {
    sample = await createSample(env);
    await createHostile(env);
    expect((await cli(env, 'seed:demo', '--events', '25', '--seed', '3')).status).toBe(0);
    // Events an import made from another calendar's UIDs (three of its rows fail, on purpose).
    await cli(env, 'import:ics', FOREIGN_ICS);
    total = Number((await env.db('events').count({ n: '*' }))[0]!.n);
    before = await restDump(env);
  }, 120_000);
  afterAll(() => tmp.remove());

  it('export:csv → import:csv changes nothing: every row unchanged, the REST dump identical', async () => {
    expect((await cli(env, 'export:csv', tmp.file('events.csv'))).status).toBe(0);
    expect(readCsv(tmp.file('events.csv'))).toHaveLength(total);
    const run = await cli(env, 'import:csv', tmp.file('events.csv'), '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      rows: total,
      created: 0,
      updated: 0,
      unchanged: total,
      failed: 0,
    });
    expect(await restDump(env)).toEqual(before);
  });

  it('export:ics → import:ics changes nothing either', async () => {
    expect((await cli(env, 'export:ics', tmp.file('events.ics'))).status).toBe(0);
    const run = await cli(env, 'import:ics', tmp.file('events.ics'), '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      rows: total,
      created: 0,
      updated: 0,
      unchanged: total,
      failed: 0,
    });
    expect(await restDump(env)).toEqual(before);
  });

  it('exports name imported events by the key they came with, native ones by global id', async () => {
    const rows = readCsv(tmp.file('events.csv'));
    const jazz = rows.find((r) => r.id === String(sample.jazz.id))!;
    expect(jazz.global_id).toBe(sample.jazz.global_id);
    const demo = rows.filter((r) => r.global_id.startsWith('demo:3:'));
    expect(demo).toHaveLength(25);
    const board = rows.find((r) => r.title === 'Board meeting')!;
    expect(board.global_id).not.toMatch(/^calendar\.test\?id=/);
    const uid = await env
      .db('event_import_uids')
      .where({ event_id: Number(board.id) })
      .first();
    expect(board.global_id).toBe(uid.uid);
  });

  it('a changed row updates that event only; the others keep their modification time', async () => {
    const rows = readCsv(tmp.file('events.csv'));
    const jazz = rows.find((r) => r.id === String(sample.jazz.id))!;
    jazz.title = 'Jazz Night (late show)';
    jazz.categories = 'Concerts';
    writeCsv(tmp.file('changed.csv'), rows);
    const stamps = async () =>
      new Map(
        (await env.db('events').select('id', 'modified_utc')).map((e) => [
          Number(e.id),
          String(e.modified_utc),
        ]),
      );
    const then = await stamps();
    const run = await cli(env, 'import:csv', tmp.file('changed.csv'), '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({ created: 0, updated: 1, unchanged: total - 1 });
    const after = await restDump(env);
    // Term counts show everywhere a term does: the category Jazz left counts one event less.
    const uncounted = (value: unknown) => JSON.stringify(value, (k, v) => (k === 'count' ? 0 : v));
    const changed = Object.keys(after).filter((k) => uncounted(after[k]) !== uncounted(before[k]));
    expect(changed).toEqual([`events/${sample.jazz.id}`]);
    const left = await env.db('terms').where({ name: 'Music, Live' }).first();
    const count = (dump: Record<string, unknown>) =>
      (dump[`categories/${left.id}`] as { body: { count: number } }).body.count;
    expect(count(after)).toBe(count(before) - 1);
    const body = (after[`events/${sample.jazz.id}`] as { body: Record<string, any> }).body;
    expect(body.title).toBe('Jazz Night (late show)');
    expect(body.categories.map((c: { name: string }) => c.name)).toEqual(['Concerts']);
    const now = await stamps();
    for (const [id, stamp] of then) {
      if (id !== sample.jazz.id) expect([id, now.get(id)]).toEqual([id, stamp]);
    }
    expect(now.get(sample.jazz.id)).not.toBe(then.get(sample.jazz.id));
    // Back as it was: the same file again restores the dump (modified times aside).
    const back = await cli(env, 'import:csv', tmp.file('events.csv'), '--json');
    expect(JSON.parse(back.stdout)).toMatchObject({ updated: 1, unchanged: total - 1 });
  });

  it('a row whose key and slug name different events fails and writes nothing', async () => {
    const rows = readCsv(tmp.file('events.csv'));
    const jazz = rows.find((r) => r.id === String(sample.jazz.id))!;
    const fair = rows.find((r) => r.id === String(sample.fair.id))!;
    const snapshot = await env.snapshot();
    writeCsv(tmp.file('conflict.csv'), [
      // Jazz's key with the fair's slug and content: it must not overwrite either.
      { ...fair, global_id: jazz.global_id },
      // Jazz's key, a slug no event has: another calendar at the same address, say.
      { ...jazz, slug: 'someone-elses-event', title: 'Impostor' },
      // A new key whose slug is taken.
      { ...jazz, global_id: 'elsewhere.example?id=1', title: 'Copy' },
    ]);
    const run = await cli(env, 'import:csv', tmp.file('conflict.csv'), '--json');
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      created: 0,
      updated: 0,
      failed: 3,
    });
    const lines = run.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `:2: the key "${jazz.global_id.replace(/[?.]/g, '\\$&')}" names event #${sample.jazz.id}, but the slug "summer-fair" is event #${sample.fair.id}`,
      ),
    );
    expect(lines[1]).toMatch(
      /:3: the key .* names event #\d+, whose slug is not "someone-elses-event"/,
    );
    expect(lines[2]).toMatch(
      /:4: the key "elsewhere\.example\?id=1" names a new event, but the slug "jazz-night" is event #/,
    );
    expect(await env.snapshot()).toBe(snapshot);
  });

  it('a key two events answer to is told apart by the slug, else nothing is written', async () => {
    // An import once recorded this site's own global id of Jazz for the fair (another calendar
    // at the same address had that id for it).
    await env
      .db('event_import_uids')
      .insert({ uid: sample.jazz.global_id, event_id: sample.fair.id });
    try {
      const rows = readCsv(tmp.file('events.csv'));
      const jazz = rows.find((r) => r.id === String(sample.jazz.id))!;
      writeCsv(tmp.file('ambiguous.csv'), [jazz, { ...jazz, slug: '' }]);
      const run = await cli(env, 'import:csv', tmp.file('ambiguous.csv'), '--json');
      expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toMatchObject({
        unchanged: 1,
        failed: 1,
      });
      expect(run.stderr).toMatch(
        /:3: the key .* names both event #\d+ and event #\d+; give the slug of one/,
      );
    } finally {
      await env.db('event_import_uids').where({ uid: sample.jazz.global_id }).delete();
    }
  });

  it('a row without a key is its slug: an existing slug updates that event, whatever its id', async () => {
    const rows = readCsv(tmp.file('events.csv'));
    const fair = rows.find((r) => r.id === String(sample.fair.id))!;
    const keyless: Record<string, string> = { ...fair };
    delete keyless.id;
    delete keyless.global_id;
    writeCsv(tmp.file('keyless.csv'), [
      // The id column is only for reading: Jazz's id here names nothing.
      { ...keyless, id: String(sample.jazz.id), excerpt: 'Bring a hat' },
      { ...keyless, slug: 'brand-new-fair', title: 'Brand new fair' },
    ]);
    const run = await cli(env, 'import:csv', tmp.file('keyless.csv'), '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({ created: 1, updated: 1, failed: 0 });
    const fairRow = await env.db('events').where({ id: sample.fair.id }).first();
    expect(fairRow.excerpt).toBe('Bring a hat');
    const jazzRow = await env.db('events').where({ id: sample.jazz.id }).first();
    expect(jazzRow.excerpt).not.toBe('Bring a hat');
    expect(await env.db('events').where({ slug: 'brand-new-fair' }).first()).toBeDefined();
  });
});
