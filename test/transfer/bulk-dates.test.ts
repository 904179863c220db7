import { InvalidParamError } from '../../src/lib/errors';
import { EventDateReader } from '../../src/events/input-dates';

/**
 * Event dates (single writes, the bulk path and imports share one reader): its fast path for
 * `YYYY-MM-DD HH:MM[:SS]` on days without a DST change must agree with the general path
 * (luxon for every input) on every input.
 */

const NOW = new Date('2026-11-21T08:00:00Z');
const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Paris',
  'Australia/Sydney',
  'Asia/Kolkata',
  'America/Sao_Paulo',
  'UTC+5:30',
  'utc-3',
  'europe/london',
  '',
];

/** Days around DST changes (gaps and overlaps on both hemispheres) and ordinary days. */
const DAYS = [
  '2027-03-14',
  '2027-11-07',
  '2027-03-28',
  '2027-10-31',
  '2027-04-04',
  '2027-10-03',
  '2027-07-01',
  '2027-01-15',
  '2028-02-29',
];
const TIMES = [
  '00:00:00',
  '00:30',
  '01:30:00',
  '02:00:00',
  '02:30:00',
  '03:00',
  '12:00:00',
  '23:59:59',
];

function outcome(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (error) {
    if (error instanceof InvalidParamError) return { invalid: error.params };
    throw error;
  }
}

describe('bulk import dates', () => {
  const reader = new EventDateReader('UTC', NOW);
  const general = new EventDateReader('UTC', NOW, false);

  it("takes the general path's answer around DST changes, for timed and all-day events", () => {
    let compared = 0;
    for (const timezone of ZONES) {
      for (const day of DAYS) {
        for (const time of TIMES) {
          for (const all_day of [false, true]) {
            const input = {
              timezone,
              all_day,
              start_date: `${day} ${time}`,
              end_date: `${day} 23:59:59`,
            };
            expect([input, outcome(() => reader.read(input))]).toEqual([
              input,
              outcome(() => general.read(input)),
            ]);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(ZONES.length * DAYS.length * TIMES.length * 2);
  });

  it("takes the general path's answer on other input forms and on invalid input", () => {
    const inputs = [
      { start_date: '2027-05-01', end_date: '2027-05-02' },
      { start_date: '2027-05-01T10:00:00+02:00', end_date: '2027-05-01T12:00:00Z' },
      { start_date: 'tomorrow 9am', end_date: '+5 days 11am', timezone: 'Europe/Paris' },
      { start_date: '1800000000', end_date: '1800003600' },
      { start_date: '2027-02-30 10:00:00', end_date: '2027-03-01 10:00:00' },
      { start_date: '2027-05-01 24:00:00', end_date: '2027-05-01 25:00:00' },
      { start_date: '2027-05-02 10:00:00', end_date: '2027-05-01 10:00:00' },
      { start_date: '', end_date: 'soon' },
      { start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 11:00:00', timezone: 'Mars/Base' },
    ];
    for (const input of inputs) {
      expect([input, outcome(() => reader.read(input))]).toEqual([
        input,
        outcome(() => general.read(input)),
      ]);
    }
  });
});
