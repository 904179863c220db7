import fs from 'node:fs';
import path from 'node:path';
import { describeEachDb } from '../support/harness';
import { allEvents, cli, tempDir } from './import-support';

/**
 * Imports of imperfect files: bad rows are reported with their line (and column) while the good
 * ones import, exit code 1; foreign iCalendar files (Outlook time zones, floating times, UTC,
 * durations, recurrences, alarms); re-imports find the same events; usage errors.
 */

const fixtures = path.join(__dirname, '..', 'fixtures');
const BAD_CSV = path.join(fixtures, 'csv', 'bad-rows.csv');
const FOREIGN_ICS = path.join(fixtures, 'ics', 'foreign.ics');

describeEachDb(
  'imports of imperfect files',
  (env) => {
    const tmp = tempDir();
    afterAll(() => tmp.remove());

    async function byTitle() {
      return new Map((await allEvents(env)).map((e) => [e.title, e]));
    }

    it('import:csv reports each bad row with its line and column and imports the others', async () => {
      const run = await cli(env, 'import:csv', BAD_CSV);
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split('\n');
      const at = (n: number) => lines.filter((l) => l.startsWith(`${BAD_CSV}:${n}: `));
      expect(at(3)).toEqual([`${BAD_CSV}:3: title: must be a non-empty string`]);
      expect(at(4)).toEqual([`${BAD_CSV}:4: start_date: is not a date`]);
      expect(at(5)[0]).toMatch(/:5: timezone: must be a time zone/);
      expect(at(6)).toEqual([
        `${BAD_CSV}:6: all_day: "maybe" is not a boolean (true, false, 1, 0, yes, no)`,
      ]);
      expect(at(7)).toEqual([`${BAD_CSV}:7: the row has 3 columns, the header 9`]);
      expect(at(10)[0]).toMatch(/:10: end_date: the end of the event must not be before its start/);
      // The rule of single writes (the importer used to say "must be one of publish, …").
      expect(at(11)).toEqual([
        `${BAD_CSV}:11: status: cannot be set to trash; delete the record instead`,
      ]);
      expect(lines.map((l) => Number(/\.csv:(\d+):/.exec(l)?.[1]))).toEqual([
        3,
        4,
        5,
        6,
        7,
        10,
        11,
        NaN,
      ]);
      expect(lines.at(-1)).toBe(
        'import:csv: 7 of 10 rows failed (see above); the others were imported.',
      );
      expect(run.stdout).toMatch(
        /bad-rows\.csv: 3 created, 0 updated, 0 unchanged, 7 failed \(10 rows in/,
      );

      const events = await byTitle();
      expect([...events.keys()].sort()).toEqual(['Good one', 'Good two', 'Multi\r\nline title']);
      expect(events.get('Good one')).toMatchObject({
        timezone: 'Europe/Paris',
        start_date: '2027-04-01 10:00:00',
        featured: true,
        venue: expect.objectContaining({ venue: 'Venue A' }),
        categories: [expect.objectContaining({ name: 'Talks' })],
      });
      // Venues and terms are matched by name, case-insensitively.
      const two = events.get('Good two')!;
      expect(two).toMatchObject({
        all_day: true,
        status: 'draft',
        end_date: '2027-04-07 23:59:59',
      });
      expect(two.venue?.id).toBe(events.get('Good one')!.venue?.id);
      expect(two.categories.map((c) => c.name)).toEqual(['Talks', 'Workshops']);
      expect(await env.db('venues').count({ n: '*' })).toEqual([{ n: 1 }]);
    });

    it('import:csv: the same key twice in a file creates once, then updates', async () => {
      const file = tmp.file('twice.csv');
      fs.writeFileSync(
        file,
        [
          'global_id,title,start_date,end_date',
          'elsewhere.example?id=7,First take,2027-08-01 10:00,2027-08-01 11:00',
          'elsewhere.example?id=7,Second take,2027-08-01 10:00,2027-08-01 12:00',
          '',
        ].join('\n'),
      );
      const run = await cli(env, 'import:csv', file, '--json');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ rows: 2, created: 1, updated: 1, failed: 0 });
      const events = await byTitle();
      expect(events.has('First take')).toBe(false);
      expect(events.get('Second take')).toMatchObject({ end_date: '2027-08-01 12:00:00' });
    });

    it('import:ics reads a foreign calendar: time zones, floating times, durations, all-day', async () => {
      const run = await cli(env, 'import:ics', FOREIGN_ICS);
      expect(run.status).toBe(1);
      const problems = run.stderr.trim().split('\n');
      expect(problems).toEqual([
        `${FOREIGN_ICS}:36: warning: RRULE: recurring event: only its first occurrence was imported`,
        `${FOREIGN_ICS}:57: warning: RECURRENCE-ID: an override of one occurrence of a recurring event: skipped`,
        `${FOREIGN_ICS}:64: DTSTART: is required`,
        `${FOREIGN_ICS}:68: DTSTART: unknown time zone "Nowhere Standard Time" (no VTIMEZONE for it)`,
        `${FOREIGN_ICS}:73: SUMMARY: must be a non-empty string`,
        'import:ics: 3 of 8 rows failed (see above); the others were imported.',
      ]);
      expect(run.stdout).toMatch(/5 created, 0 updated, 0 unchanged, 3 failed, 2 warning\(s\)/);

      const events = await byTitle();
      // Outlook's "Eastern Standard Time" through its VTIMEZONE: 18:00 EDT is 22:00 UTC.
      expect(events.get('Board meeting')).toMatchObject({
        timezone: 'UTC',
        start_date: '2027-06-10 22:00:00',
        end_date: '2027-06-11 00:00:00',
        description: '<p>Agenda:<br />1. Budget<br />2. &lt;Misc&gt;</p>',
        website: 'https://example.com/board',
        venue: expect.objectContaining({ venue: 'Room 4, City Hall' }),
        organizer: [expect.objectContaining({ organizer: 'Jane Doe', email: 'jane@example.com' })],
        categories: [
          expect.objectContaining({ name: 'Meetings' }),
          expect.objectContaining({ name: 'Civic' }),
        ],
      });
      expect(events.get('Weekly standup')).toMatchObject({
        timezone: 'Europe/Berlin',
        start_date: '2027-03-01 09:00:00',
        utc_start_date: '2027-03-01 08:00:00',
        venue: expect.objectContaining({ venue: 'Office Berlin', geo_lat: 52.52, geo_lng: 13.405 }),
      });
      expect(events.get('UTC webinar')).toMatchObject({
        timezone: 'UTC',
        start_date: '2027-04-01 15:00:00',
        end_date: '2027-04-01 16:30:00',
      });
      expect(events.get('Holiday')).toMatchObject({
        all_day: true,
        start_date: '2027-05-01 00:00:00',
        end_date: '2027-05-01 23:59:59',
      });
      // Floating times are in the site's time zone.
      expect(events.get('Floating breakfast')).toMatchObject({
        timezone: 'Europe/Paris',
        start_date: '2027-02-02 08:00:00',
        utc_start_date: '2027-02-02 07:00:00',
      });
    });

    it('import:ics again finds the same events, unchanged', async () => {
      const count = (await allEvents(env)).length;
      const run = await cli(env, 'import:ics', FOREIGN_ICS, '--json');
      expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toMatchObject({
        created: 0,
        updated: 0,
        unchanged: 5,
        failed: 3,
        warnings: 2,
      });
      expect((await allEvents(env)).length).toBe(count);
    });

    it('rejects what is not an import: usage errors and unreadable files', async () => {
      expect((await cli(env, 'import:csv')).status).toBe(2);
      const missing = await cli(env, 'import:ics', tmp.file('nope.ics'));
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(/nope\.ics: no such file/);
      expect((await cli(env, 'import:csv', BAD_CSV, 'extra')).status).toBe(2);

      const headerless = tmp.file('headerless.csv');
      fs.writeFileSync(headerless, 'name,when\nA,tomorrow\n');
      const run = await cli(env, 'import:csv', headerless);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/lacks the required column\(s\) title, start_date, end_date/);

      const notIcs = tmp.file('not.ics');
      fs.writeFileSync(notIcs, 'hello\n');
      const ics = await cli(env, 'import:ics', notIcs);
      expect(ics.status).toBe(1);
      expect(ics.stderr).toMatch(/not\.ics:1: no BEGIN:VCALENDAR/);
    });
  },
  { SITE_TIMEZONE: 'Europe/Paris' },
);
