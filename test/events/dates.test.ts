import {
  dateDetails,
  localToUtc,
  nowIn,
  parseDateInput,
  toIsoWithOffset,
  zoneAbbr,
} from '../../src/lib/dates';

// Saturday 2026-11-21 08:00 UTC = 03:00 in New York (EST, UTC-5).
const NOW = new Date('2026-11-21T08:00:00Z');

function parsed(input: string | number, zone: string): string | null {
  return parseDateInput(input, zone, NOW)?.toFormat('yyyy-LL-dd HH:mm:ss ZZ') ?? null;
}

describe('parseDateInput', () => {
  it.each([
    ['2026-11-25 10:00:00', '2026-11-25 10:00:00 +00:00', '2026-11-25 10:00:00 -05:00'],
    ['2026-11-25 10:00', '2026-11-25 10:00:00 +00:00', '2026-11-25 10:00:00 -05:00'],
    ['2026-11-25', '2026-11-25 00:00:00 +00:00', '2026-11-25 00:00:00 -05:00'],
    ['1970-01-01', '1970-01-01 00:00:00 +00:00', '1970-01-01 00:00:00 -05:00'],
    // ISO with an offset is that instant, shown in the zone asked for.
    ['2026-11-25T10:00:00+02:00', '2026-11-25 08:00:00 +00:00', '2026-11-25 03:00:00 -05:00'],
    ['2026-11-25T10:00:00Z', '2026-11-25 10:00:00 +00:00', '2026-11-25 05:00:00 -05:00'],
    ['2026-11-25T10:00:00', '2026-11-25 10:00:00 +00:00', '2026-11-25 10:00:00 -05:00'],
    // Unix timestamps are instants too.
    ['1795000000', '2026-11-18 11:06:40 +00:00', '2026-11-18 06:06:40 -05:00'],
    // Relative English is read against the wall clock of the zone (03:00 on the 21st in NY).
    ['tomorrow', '2026-11-22 00:00:00 +00:00', '2026-11-22 00:00:00 -05:00'],
    ['tomorrow 9am', '2026-11-22 09:00:00 +00:00', '2026-11-22 09:00:00 -05:00'],
    ['yesterday', '2026-11-20 00:00:00 +00:00', '2026-11-20 00:00:00 -05:00'],
    ['next wednesday 4pm', '2026-11-25 16:00:00 +00:00', '2026-11-25 16:00:00 -05:00'],
    ['+5 days 11am', '2026-11-26 11:00:00 +00:00', '2026-11-26 11:00:00 -05:00'],
    ['+5 days', '2026-11-26 08:00:00 +00:00', '2026-11-26 03:00:00 -05:00'],
    ['+5 weeks', '2026-12-26 08:00:00 +00:00', '2026-12-26 03:00:00 -05:00'],
  ])('%s', (input, utc, newYork) => {
    expect(parsed(input, 'UTC')).toBe(utc);
    expect(parsed(input, 'America/New_York')).toBe(newYork);
  });

  it('reads "now" as the current instant', () => {
    expect(parsed('now', 'UTC')).toBe('2026-11-21 08:00:00 +00:00');
  });

  // Known bug in src/lib/dates.ts, reported to the lead: chrono marks "now" with a certain
  // UTC offset (the reference instant's), so it is shifted by the zone's offset once more.
  it('reads "now" in New York as 03:00 on the 21st', () => {
    expect(parsed('now', 'America/New_York')).toBe('2026-11-21 03:00:00 -05:00');
  });

  it.each(['garbage', 'before my birthday', '', '   ', '2026-13-45', 'next blursday'])(
    'rejects %j',
    (input) => {
      expect(parsed(input, 'UTC')).toBeNull();
    },
  );
});

describe('the other date helpers', () => {
  it('splits a stored date into zero-padded parts', () => {
    expect(dateDetails('2027-03-05 07:08:09')).toEqual({
      year: '2027',
      month: '03',
      day: '05',
      hour: '07',
      minutes: '08',
      seconds: '09',
    });
  });

  it('converts New York wall clocks to UTC across daylight saving time', () => {
    expect(localToUtc('2027-01-15 19:00:00', 'America/New_York')).toBe('2027-01-16 00:00:00');
    expect(localToUtc('2027-07-15 19:00:00', 'America/New_York')).toBe('2027-07-15 23:00:00');
  });

  it('names the zone abbreviation at an instant', () => {
    expect(zoneAbbr('America/New_York', '2027-01-16 00:00:00')).toBe('EST');
    expect(zoneAbbr('America/New_York', '2027-07-15 23:00:00')).toBe('EDT');
    expect(zoneAbbr('UTC', '2027-07-15 23:00:00')).toBe('UTC');
    expect(zoneAbbr('Europe/Paris', '2027-07-15 23:00:00')).toBe('CEST');
  });

  it('formats ISO 8601 with the offset of the zone', () => {
    expect(toIsoWithOffset('2027-01-15 19:00:00', 'America/New_York')).toBe(
      '2027-01-15T19:00:00-05:00',
    );
    expect(toIsoWithOffset('2027-01-15 19:00:00', 'UTC')).toBe('2027-01-15T19:00:00Z');
  });

  it('gives the wall clock of now in a zone', () => {
    expect(nowIn('America/New_York', NOW).toFormat('yyyy-LL-dd HH:mm:ss')).toBe(
      '2026-11-21 03:00:00',
    );
  });
});
