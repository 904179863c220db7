import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { EVENT_COLUMNS } from '../../src/transfer/csv/columns';
import { describeEachDb, TestEnv } from '../support/harness';
import { cli, createSample, snapshotOf, tempDir, type Sample } from './import-support';

/**
 * export:csv / export:ics → import into an empty database → the same data; a second import of
 * the same file finds the same events (unchanged: nothing written) instead of duplicating; a
 * changed row updates its event only; a site's own export imported back changes nothing.
 */

describeEachDb('export and import round trips', (env) => {
  const tmp = tempDir();
  let sample: Sample;
  let target: TestEnv;

  beforeAll(async () => {
    sample = await createSample(env);
    target = new TestEnv(env.dialect);
    await target.start();
  }, 60_000);
  afterAll(async () => {
    await target?.stop();
    tmp.remove();
  });

  it('export:csv writes every non-trashed event with the documented columns', async () => {
    const run = await cli(env, 'export:csv', tmp.file('events.csv'));
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/events\.csv: 4 events exported in/);
    const rows = parse(fs.readFileSync(tmp.file('events.csv')), { columns: true }) as Record<
      string,
      string
    >[];
    expect(Object.keys(rows[0]!)).toEqual(EVENT_COLUMNS.map((c) => c.name));
    expect(rows.map((r) => r.title).sort()).toEqual([
      'Jazz Night',
      'Offset Talk',
      'Secret Gig',
      'Summer Fair',
    ]);
    const jazz = rows.find((r) => r.title === 'Jazz Night')!;
    expect(jazz).toMatchObject({
      id: String(sample.jazz.id),
      global_id: sample.jazz.global_id,
      start_date: '2027-03-10 19:00:00',
      timezone: 'America/New_York',
      utc_start_date: '2027-03-11 00:00:00',
      all_day: 'false',
      cost: '$10, $20, $30',
      website: 'https://jazz.example.com/night',
      featured: 'true',
      venue: 'Main Hall',
      venue_city: 'Springfield',
      venue_lat: '39.7817',
      organizers: 'Acme Org; Second Crew',
      organizer_emails: 'org@example.com; ',
      categories: 'Concerts; Music, Live',
      tags: 'jazz; late night',
    });
    expect(rows.find((r) => r.title === 'Summer Fair')).toMatchObject({
      status: 'draft',
      all_day: 'true',
      start_date: '2027-07-04 00:00:00',
      end_date: '2027-07-05 23:59:59',
      venue: '',
      website: '',
    });
  });

  it('import:csv into an empty database gives the same events; again, changes nothing', async () => {
    const before = await snapshotOf(env);
    // What is compared is the real thing: links, HTML, dates, costs, flags.
    expect(before.find((e) => e.title === 'Jazz Night')).toMatchObject({
      description: '<p>Hello &amp; <strong>welcome</strong></p><p>Second line</p>',
      cost: '$10 – $30',
      cost_details: { values: ['10', '20', '30'] },
      flags: [true, false, false, true, false],
      venue: { venue: 'Main Hall', city: 'Springfield', geo_lat: 39.7817, geo_lng: -89.6501 },
      organizers: [
        { organizer: 'Acme Org', email: 'org@example.com' },
        { organizer: 'Second Crew', email: '' },
      ],
      categories: ['Concerts', 'Music, Live'],
      tags: ['jazz', 'late night'],
    });
    expect(before.find((e) => e.title === 'Offset Talk')).toMatchObject({
      timezone: 'UTC+5',
      start_date: '2027-01-15 09:30:00',
      flags: [false, false, true, false, false],
    });
    const first = await cli(target, 'import:csv', tmp.file('events.csv'));
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/4 created, 0 updated, 0 unchanged, 0 failed/);
    expect(await snapshotOf(target)).toEqual(before);
    expect(await target.db('venues').count({ n: '*' })).toEqual([{ n: 1 }]);
    expect(await target.db('organizers').count({ n: '*' })).toEqual([{ n: 2 }]);

    const again = await cli(target, 'import:csv', tmp.file('events.csv'), '--json');
    expect(again.status).toBe(0);
    // Nothing changed: nothing is written.
    expect(JSON.parse(again.stdout)).toMatchObject({
      rows: 4,
      created: 0,
      updated: 0,
      unchanged: 4,
      failed: 0,
    });
    expect(await target.db('events').count({ n: '*' })).toEqual([{ n: 4 }]);
    expect(await snapshotOf(target)).toEqual(before);
  });

  it('a changed row in a re-import updates that event only', async () => {
    const text = fs.readFileSync(tmp.file('events.csv'), 'utf8');
    fs.writeFileSync(tmp.file('changed.csv'), text.replace('Jazz Night', 'Jazz Night (late show)'));
    const run = await cli(target, 'import:csv', tmp.file('changed.csv'), '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({ created: 0, updated: 1, unchanged: 3 });
    const titles = (await snapshotOf(target)).map((e) => e.title);
    expect(titles).toEqual(['Jazz Night (late show)', 'Offset Talk', 'Secret Gig', 'Summer Fair']);
  });

  it("importing a site's own export into it changes nothing", async () => {
    const before = await snapshotOf(env);
    const run = await cli(env, 'import:csv', tmp.file('events.csv'), '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 4,
      failed: 0,
    });
    expect(await env.db('events').count({ n: '*' })).toEqual([{ n: 4 }]);
    expect(await snapshotOf(env)).toEqual(before);
  });

  it('export:ics writes a calendar that ical.js reads, with time zones and all-day dates', async () => {
    const run = await cli(env, 'export:ics', tmp.file('events.ics'));
    expect(run.status).toBe(0);
    const text = fs.readFileSync(tmp.file('events.ics'), 'utf8');
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    const zones = calendar
      .getAllSubcomponents('vtimezone')
      .map((z) => z.getFirstPropertyValue('tzid'));
    expect(zones).toEqual(expect.arrayContaining(['America/New_York', 'Europe/London']));
    for (const zone of calendar.getAllSubcomponents('vtimezone'))
      ICAL.TimezoneService.register(zone);
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.uid).sort()).toEqual(
      [sample.jazz, sample.fair, sample.offset, sample.secret].map((s) => s.global_id).sort(),
    );
    const jazz = events.find((e) => e.summary === 'Jazz Night')!;
    expect(jazz.startDate.toJSDate().toISOString()).toBe('2027-03-11T00:00:00.000Z');
    const offset = events.find((e) => e.summary === 'Offset Talk')!;
    expect(offset.startDate.toJSDate().toISOString()).toBe('2027-01-15T04:30:00.000Z');
    const fair = events.find((e) => e.summary === 'Summer Fair')!;
    expect(fair.startDate.isDate).toBe(true);
    expect(fair.startDate.toString()).toBe('2027-07-04');
    expect(fair.endDate.toString()).toBe('2027-07-06');
  });

  it('import:ics into an empty database gives the same events; again, changes nothing', async () => {
    const before = await snapshotOf(env, { organizerDetails: true });
    const fresh = new TestEnv(env.dialect);
    await fresh.start();
    try {
      const first = await cli(fresh, 'import:ics', tmp.file('events.ics'));
      expect(first.stderr).toBe('');
      expect(first.stdout).toMatch(/4 created, 0 updated, 0 unchanged, 0 failed/);
      expect(await snapshotOf(fresh, { organizerDetails: true })).toEqual(before);
      const again = await cli(fresh, 'import:ics', tmp.file('events.ics'), '--json');
      expect(JSON.parse(again.stdout)).toMatchObject({
        created: 0,
        updated: 0,
        unchanged: 4,
        failed: 0,
      });
      expect(await fresh.db('events').count({ n: '*' })).toEqual([{ n: 4 }]);
      expect(await snapshotOf(fresh, { organizerDetails: true })).toEqual(before);
    } finally {
      await fresh.stop();
    }
  }, 60_000);

  it('export:csv --collection writes venues, organizers and terms', async () => {
    const run = await cli(env, 'export:csv', tmp.file('venues.csv'), '--collection', 'venues');
    expect(run.status).toBe(0);
    const venues = parse(fs.readFileSync(tmp.file('venues.csv')), { columns: true });
    expect(venues).toEqual([expect.objectContaining({ venue: 'Main Hall', city: 'Springfield' })]);
    await cli(env, 'export:csv', tmp.file('tags.csv'), '--collection', 'tags');
    const tags = parse(fs.readFileSync(tmp.file('tags.csv')), { columns: true }) as {
      name: string;
    }[];
    expect(tags.map((t) => t.name).sort()).toEqual(['jazz', 'late night']);
    const bad = await cli(env, 'export:csv', '--collection', 'nope');
    expect(bad.status).toBe(2);
  });
});
