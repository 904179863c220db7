import fc from 'fast-check';
import { isoTimestamp } from '../../../src/http/logger';

/**
 * The log lines' timestamp (src/http/logger.ts) keeps the text up to the second between calls:
 * it must answer exactly what pino's `isoTime` answers, whatever order times come in.
 */
const pino = (now: number): string => `,"time":"${new Date(now).toISOString()}"`;

describe('log timestamp', () => {
  it('formats milliseconds with their leading zeros, across second boundaries', () => {
    const base = Date.UTC(2026, 10, 26, 7, 33, 12);
    for (const ms of [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 59_999, 60_000, -1, -1000]) {
      expect(isoTimestamp(base + ms)).toBe(pino(base + ms));
    }
  });

  it('answers what pino would for any time, in any order', () => {
    const times = fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(fc.array(times, { minLength: 1, maxLength: 20 }), (list) => {
        for (const now of list) expect(isoTimestamp(now)).toBe(pino(now));
      }),
    );
  });

  it('uses the clock by default', () => {
    const before = Date.now();
    const text = isoTimestamp();
    const at = Date.parse(text.slice(9, -1));
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});
