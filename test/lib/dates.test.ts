import fc from 'fast-check';
import { DateTime } from 'luxon';
import { SQL_FORMAT, formatSql, utcSql } from '../../src/lib';

/**
 * The SQL date texts written on every write (`formatSql`, `utcSql`) are built from the fields
 * instead of Luxon's format tokens: they must answer exactly what `toFormat(SQL_FORMAT)` does.
 */

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Chatham'];
/** Years 0 to 9999, the range DATETIME holds. */
const INSTANT = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 });

describe('SQL date texts', () => {
  it('formatSql answers what Luxon formats, in any zone, years 0-9999', () => {
    fc.assert(
      fc.property(INSTANT, fc.constantFrom(...ZONES), (ms, zone) => {
        const dt = DateTime.fromMillis(ms, { zone });
        expect(formatSql(dt)).toBe(dt.toFormat(SQL_FORMAT));
      }),
      { numRuns: 2000 },
    );
  });

  it('formatSql leaves what lies outside 0-9999, and invalid dates, to Luxon', () => {
    const far = DateTime.fromObject({ year: 12345, month: 6, day: 7 }, { zone: 'UTC' });
    expect(formatSql(far)).toBe(far.toFormat(SQL_FORMAT));
    const invalid = DateTime.fromISO('not a date');
    expect(formatSql(invalid)).toBe(invalid.toFormat(SQL_FORMAT));
  });

  it('utcSql is the UTC wall clock of an instant, from epoch milliseconds or a Date', () => {
    fc.assert(
      fc.property(INSTANT, (ms) => {
        const expected = DateTime.fromMillis(ms, { zone: 'UTC' }).toFormat(SQL_FORMAT);
        expect(utcSql(ms)).toBe(expected);
        expect(utcSql(new Date(ms))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
