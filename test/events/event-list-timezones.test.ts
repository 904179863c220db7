import { DEFAULT_NOW, describeEachDb } from '../support/harness';
import { insertEvent, listEvents, resetCalendar, titles } from '../support/event-fixtures';

// Lists compare the events' local wall clocks; the default window and relative English are
// computed in the site time zone.
describeEachDb('events list: time zones on a UTC site', (env) => {
  beforeEach(() => resetCalendar(env));

  it('compares local wall clocks and reports EST/EDT for a New York event on a UTC site', async () => {
    await insertEvent(env, {
      title: 'ny-winter',
      start: '2027-01-15 19:00:00',
      end: '2027-01-15 21:00:00',
      timezone: 'America/New_York',
    });
    await insertEvent(env, {
      title: 'ny-summer',
      start: '2027-07-15 19:00:00',
      end: '2027-07-15 21:00:00',
      timezone: 'America/New_York',
    });
    const fields = 'title start_date utc_start_date utc_end_date timezone timezone_abbr';
    const list = await listEvents(
      env,
      { start_date: '2027-01-01', end_date: '2027-12-31' },
      { fields },
    );
    expect(list.events).toEqual([
      {
        title: 'ny-winter',
        start_date: '2027-01-15 19:00:00',
        utc_start_date: '2027-01-16 00:00:00',
        utc_end_date: '2027-01-16 02:00:00',
        timezone: 'America/New_York',
        timezone_abbr: 'EST',
      },
      {
        title: 'ny-summer',
        start_date: '2027-07-15 19:00:00',
        utc_start_date: '2027-07-15 23:00:00',
        utc_end_date: '2027-07-16 01:00:00',
        timezone: 'America/New_York',
        timezone_abbr: 'EDT',
      },
    ]);
    // Its UTC start is on the 16th, but the list compares the local start (the 15th).
    expect(await titles(env, { start_date: '2027-01-16', end_date: '2027-02-01' })).toEqual([]);
    expect(await titles(env, { start_date: '2027-01-15', end_date: '2027-01-15' })).toEqual([
      'ny-winter',
    ]);
  });

  it('lists by the end bound an event whose local end is before its local start (DST fall-back)', async () => {
    // 01:50 EDT to 01:10 EST: 20 minutes later in UTC, 40 minutes earlier on the wall clock.
    await insertEvent(env, {
      title: 'fall-back',
      start: '2027-11-07 01:50:00',
      end: '2027-11-07 01:10:00',
      timezone: 'America/New_York',
    });
    await insertEvent(env, {
      title: 'week-later',
      start: '2027-11-14 10:00:00',
      end: '2027-11-14 11:00:00',
    });
    // An end bound implies a bound on the start for the index (a day after it): the event whose
    // wall-clock start is past the end bound is still listed.
    const strict = { strict_dates: true, start_date: '2027-11-07 00:00:00' };
    expect(await titles(env, { ...strict, end_date: '2027-11-07 01:20:00' })).toEqual([
      'fall-back',
    ]);
    expect(await titles(env, { ...strict, end_date: '2027-11-07 01:05:00' })).toEqual([]);
    expect(await titles(env, { start_date: '2027-11-01', end_date: '2027-11-13' })).toEqual([
      'fall-back',
    ]);
    expect(await titles(env, { start_date: '2027-11-01', end_date: '2027-11-14' })).toEqual([
      'fall-back',
      'week-later',
    ]);
  });
});

describeEachDb(
  'events list: default window in a New York site',
  (env) => {
    beforeEach(() => resetCalendar(env));
    afterEach(() => {
      env.now = DEFAULT_NOW;
    });

    it('computes yesterday and today+24 months in the site time zone', async () => {
      // 02:00 UTC on the 21st is still the evening of the 20th in New York.
      env.now = new Date('2026-11-21T02:00:00Z');
      await insertEvent(env, {
        title: 'in',
        start: '2026-11-19 00:00:00',
        timezone: 'America/New_York',
      });
      await insertEvent(env, {
        title: 'out',
        start: '2026-11-18 23:59:59',
        timezone: 'America/New_York',
      });
      const list = await listEvents(env);
      expect(list.events.map((e) => e.title)).toEqual(['in']);
      expect(list.rest_url).toContain(
        'start_date=2026-11-19 00:00:00&end_date=2028-11-20 23:59:59',
      );
      // Relative English is read in the site zone too.
      const tomorrow = await listEvents(env, { start_date: 'tomorrow' });
      expect(tomorrow.rest_url).toContain('start_date=2026-11-21 00:00:00');
    });
  },
  { SITE_TIMEZONE: 'America/New_York' },
);
