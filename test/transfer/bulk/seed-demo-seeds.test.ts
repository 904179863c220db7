import { demoRecords, demoSlug } from '../../../src/cli/seed-data';
import { describeEachDb } from '../../support/harness';
import { allEvents, cli } from '../import-support';

/**
 * Demos of two seeds in one database: titles repeat at the same position across seeds (of 100
 * events, the 90th of seeds 7 and 1 share one), and an import refuses a slug that names another event, so
 * the seed is part of every demo slug but seed 1's (which keeps the slugs it always had).
 */

/** Enough events for a shared title (the draws depend on the count: organizers ≈ N/25). */
const N = 100;
const EVENTS = String(N);

describe('demo slugs', () => {
  it('differ between seeds at a position where the titles are equal', () => {
    const today = new Date('2026-11-21T08:00:00Z');
    const seven = [...demoRecords(N, 7, today)];
    const one = [...demoRecords(N, 1, today)];
    const same = seven.findIndex((r, i) => r.fields.title === one[i]!.fields.title);
    // The premise of the database test below: a title both seeds give one position.
    expect(same).toBeGreaterThanOrEqual(0);
    expect(seven[same]!.fields.slug).not.toBe(one[same]!.fields.slug);
    const all = [...seven, ...one].map((r) => r.fields.slug);
    expect(new Set(all).size).toBe(2 * N);
    expect(demoSlug('Grand Jazz Night', 1, 12)).toBe('grand-jazz-night-12');
    expect(demoSlug('Grand Jazz Night', 7, 12)).toBe('grand-jazz-night-s7-12');
  });
});

describeEachDb('seed:demo with two seeds', (env) => {
  it('seeds 7 then 1 into one database: every row created, none failed', async () => {
    const seven = await cli(env, 'seed:demo', '--events', EVENTS, '--seed', '7', '--json');
    expect(seven.status).toBe(0);
    expect(JSON.parse(seven.stdout)).toMatchObject({ seed: 7, rows: N, created: N, failed: 0 });
    const one = await cli(env, 'seed:demo', '--events', EVENTS, '--seed', '1', '--json');
    expect(one.stderr).toBe('');
    expect(one.status).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ seed: 1, rows: N, created: N, failed: 0 });
    const events = await allEvents(env);
    expect(events).toHaveLength(2 * N);
    expect(new Set(events.map((e) => e.slug)).size).toBe(2 * N);
    // Each seed again: its own events found by key, nothing added or failed.
    const again = await cli(env, 'seed:demo', '--events', EVENTS, '--seed', '7');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`0 created, 0 updated, ${N} unchanged, 0 failed`));
  }, 60_000);
});
