import { describeEachDb } from '../support/harness';
import {
  insertEvent,
  listError,
  listEvents,
  resetCalendar,
  titles,
} from '../support/event-fixtures';

const ROOT = 'http://calendar.test/wp-json/calendar/events/v1/events/';

// env.now is Saturday 2026-11-21 08:00 UTC; the site time zone is UTC unless said otherwise.
describeEachDb('events list: date window and date parameters', (env) => {
  beforeEach(() => resetCalendar(env));

  it('applies the default window at its edges and echoes it', async () => {
    await insertEvent(env, {
      title: 'in-first',
      start: '2026-11-20 00:00:00',
      end: '2026-11-20 01:00:00',
    });
    await insertEvent(env, {
      title: 'out-early',
      start: '2026-11-19 23:59:59',
      end: '2026-11-20 01:00:00',
    });
    await insertEvent(env, {
      title: 'in-last',
      start: '2028-11-21 10:00:00',
      end: '2028-11-21 23:59:59',
    });
    await insertEvent(env, {
      title: 'out-late',
      start: '2028-11-21 10:00:00',
      end: '2028-11-22 00:00:00',
    });
    const list = await listEvents(env);
    expect(list.events.map((e) => e.title)).toEqual(['in-first', 'in-last']);
    expect(list.total).toBe(2);
    expect(list.rest_url).toBe(
      `${ROOT}?page=1&per_page=10&start_date=2026-11-20 00:00:00&end_date=2028-11-21 23:59:59&status=publish`,
    );
  });

  it('moves the default window at local midnight, and with the site time zone', async () => {
    const window = async () => {
      const url = (await listEvents(env)).rest_url as string;
      return /start_date=([^&]+)&end_date=([^&]+)/.exec(url)!.slice(1);
    };
    const saved = { now: env.now, zone: env.config.siteTimezone };
    try {
      env.now = new Date('2026-11-21T23:59:59Z');
      expect(await window()).toEqual(['2026-11-20 00:00:00', '2028-11-21 23:59:59']);
      env.now = new Date('2026-11-22T00:00:00Z');
      expect(await window()).toEqual(['2026-11-21 00:00:00', '2028-11-22 23:59:59']);
      // Back in time (a pinned clock may move so): the earlier day's window again.
      env.now = new Date('2026-11-21T12:00:00Z');
      expect(await window()).toEqual(['2026-11-20 00:00:00', '2028-11-21 23:59:59']);
      // Already Sunday in Auckland (UTC+13).
      env.config.siteTimezone = 'Pacific/Auckland';
      expect(await window()).toEqual(['2026-11-21 00:00:00', '2028-11-22 23:59:59']);
    } finally {
      env.now = saved.now;
      env.config.siteTimezone = saved.zone;
    }
  });

  it('widens start_date/end_date to whole days unless strict_dates', async () => {
    await insertEvent(env, {
      title: 'e1',
      start: '2027-01-01 16:00:00',
      end: '2027-01-01 16:30:00',
    });
    await insertEvent(env, {
      title: 'e2',
      start: '2027-01-01 20:00:00',
      end: '2027-01-01 20:30:00',
    });
    const args = { start_date: '2027-01-01 15:00:00', end_date: '2027-01-01 18:00:00' };
    const wide = await listEvents(env, args);
    expect(wide.events.map((e) => e.title)).toEqual(['e1', 'e2']);
    expect(wide.rest_url).toContain('start_date=2027-01-01 00:00:00&end_date=2027-01-01 23:59:59');
    const strict = await listEvents(env, { ...args, strict_dates: true });
    expect(strict.events.map((e) => e.title)).toEqual(['e1']);
    expect(strict.rest_url).toContain(
      'start_date=2027-01-01 15:00:00&end_date=2027-01-01 18:00:00&status=publish&strict_dates=true',
    );
  });

  it('keeps the other default when only start_date or end_date is given', async () => {
    await insertEvent(env, { title: 'old', start: '2020-05-01 10:00:00' });
    await insertEvent(env, { title: 'soon', start: '2026-12-01 10:00:00' });
    await insertEvent(env, { title: 'far', start: '2030-05-01 10:00:00' });
    expect(await titles(env, { start_date: '2019-01-01' })).toEqual(['old', 'soon']);
    expect(await titles(env, { end_date: '2031-01-01' })).toEqual(['soon', 'far']);
    expect(await titles(env, { start_date: '2019-01-01', end_date: '2031-01-01' })).toEqual([
      'old',
      'soon',
      'far',
    ]);
  });

  it('drops both defaults when a relative bound is given, rounding every bound to 23:59:59', async () => {
    await insertEvent(env, { title: 'old', start: '2020-05-01 10:00:00' });
    await insertEvent(env, { title: 'far', start: '2030-05-01 10:00:00' });
    expect(await titles(env, { starts_before: '2021-01-01' })).toEqual(['old']);
    expect(await titles(env, { starts_after: '2029-01-01' })).toEqual(['far']);
    const list = await listEvents(env, { ends_after: '2029-01-01' });
    expect(list.rest_url).toBe(
      `${ROOT}?page=1&per_page=10&status=publish&ends_after=2029-01-01 23:59:59`,
    );
  });

  it('uses strict < and > for the relative bounds, widened to the end of their day', async () => {
    await insertEvent(env, {
      title: 'spans',
      start: '2017-12-30 10:00:00',
      end: '2018-01-03 10:00:00',
    });
    await insertEvent(env, {
      title: 'dec31',
      start: '2017-12-31 10:00:00',
      end: '2017-12-31 12:00:00',
    });
    await insertEvent(env, {
      title: 'jan1',
      start: '2018-01-01 20:00:00',
      end: '2018-01-01 21:00:00',
    });
    await insertEvent(env, {
      title: 'jan2',
      start: '2018-01-02 00:00:00',
      end: '2018-01-02 01:00:00',
    });
    await insertEvent(env, {
      title: 'jan3',
      start: '2018-01-03 09:00:00',
      end: '2018-01-03 10:00:00',
    });
    expect(await titles(env, { ends_after: '2017-12-31', starts_before: '2018-01-02' })).toEqual([
      'spans',
      'jan1',
      'jan2',
    ]);
    // ends_before=2018-01-03 means end < 2018-01-03 23:59:59, so jan3 (ends 10:00) is in.
    expect(await titles(env, { starts_after: '2018-01-01', ends_before: '2018-01-03' })).toEqual([
      'jan2',
      'jan3',
    ]);
    expect(await titles(env, { starts_after: '2018-01-01', ends_before: '2018-01-02' })).toEqual([
      'jan2',
    ]);
    // With start_date/end_date too, both sets of bounds intersect.
    expect(
      await titles(env, {
        ends_after: '2017-12-31',
        starts_before: '2018-01-02',
        start_date: '2018-01-01',
        end_date: '2018-01-02',
      }),
    ).toEqual(['jan1', 'jan2']);
  });

  it('parses relative English against the pinned clock', async () => {
    await insertEvent(env, { title: 'today', start: '2026-11-21 12:00:00' });
    await insertEvent(env, { title: 'tomorrow', start: '2026-11-22 09:00:00' });
    await insertEvent(env, { title: 'wed-4pm', start: '2026-11-25 16:00:00' });
    await insertEvent(env, { title: 'wed-430', start: '2026-11-25 16:30:00' });
    await insertEvent(env, { title: 'day-6', start: '2026-11-27 01:00:00' });
    const fromTomorrow = await listEvents(env, { start_date: 'tomorrow', end_date: '+5 days' });
    expect(fromTomorrow.events.map((e) => e.title)).toEqual(['tomorrow', 'wed-4pm', 'wed-430']);
    expect(fromTomorrow.rest_url).toContain(
      'start_date=2026-11-22 00:00:00&end_date=2026-11-26 23:59:59',
    );
    const afterWed = { starts_after: 'next wednesday 4pm', strict_dates: true };
    expect(await titles(env, afterWed)).toEqual(['wed-430', 'day-6']);
    expect(await titles(env, { starts_after: 'next wednesday 4pm' })).toEqual(['day-6']);
  });

  it('rejects unparseable dates, naming every bad parameter', async () => {
    const error = await listError(env, { start_date: 'before my birthday', ends_after: 'soonish' });
    expect(error.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_invalid_param',
      params: { start_date: expect.any(String), ends_after: expect.any(String) },
    });
    const empty = await listError(env, { end_date: '' });
    expect(Object.keys(empty.extensions?.params)).toEqual(['end_date']);
  });

  it('accepts 1970-01-01, ISO 8601 and Unix timestamps', async () => {
    await insertEvent(env, { title: 'epoch', start: '1970-01-01 10:00:00' });
    expect(await titles(env, { start_date: '1970-01-01', end_date: '1970-01-01' })).toEqual([
      'epoch',
    ]);
    expect(
      await titles(env, { start_date: '1970-01-01T09:00:00+00:00', end_date: '86399' }),
    ).toEqual(['epoch']);
  });

  it('ignores every date filter, the default window included, for include', async () => {
    const far = await insertEvent(env, { title: 'far', start: '2030-01-01 10:00:00' });
    const old = await insertEvent(env, { title: 'old', start: '2020-01-01 10:00:00' });
    await insertEvent(env, { title: 'other', start: '2026-12-01 10:00:00' });
    const list = await listEvents(env, { include: [old, far], start_date: '2026-12-01' });
    // By id, not by start.
    expect(list.events.map((e) => e.title)).toEqual(['far', 'old']);
    expect(list.rest_url).toBe(`${ROOT}?page=1&per_page=10&status=publish&include=${old},${far}`);
  });
});
