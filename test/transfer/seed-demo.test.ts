import { describeEachDb, TestEnv } from '../support/harness';
import { allEvents, cli } from './import-support';

/** `seed:demo`: deterministic demo data through the bulk path; a re-run finds the same events, never adds. */

describeEachDb('seed:demo', (env) => {
  it('creates N events with venues, organizers, categories (a tree) and tags', async () => {
    const run = await cli(env, 'seed:demo', '--events', '120', '--json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ seed: 1, rows: 120, created: 120, failed: 0 });
    const events = await allEvents(env);
    expect(events).toHaveLength(120);
    expect(events.filter((e) => e.venue).length).toBeGreaterThan(80);
    expect(events.every((e) => e.organizer.length >= 1 && e.categories.length >= 1)).toBe(true);
    expect(events.some((e) => e.all_day)).toBe(true);
    expect(new Set(events.map((e) => e.timezone)).size).toBeGreaterThan(3);
    const venues = Number((await env.db('venues').count({ n: '*' }))[0]!.n);
    expect(venues).toBeGreaterThan(1);
    expect(venues).toBeLessThanOrEqual(6);
    const concerts = await env.db('terms').where({ name: 'Concerts' }).first();
    const music = await env.db('terms').where({ name: 'Music' }).first();
    expect(Number(concerts.parent_id)).toBe(Number(music.id));
  });

  it('runs again without a write (every event unchanged), and the same seed gives the same data elsewhere', async () => {
    const before = (await allEvents(env)).map((e) => [e.title, e.start_date, e.venue?.venue]);
    const again = await cli(env, 'seed:demo', '--events', '120');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/0 created, 0 updated, 120 unchanged, 0 failed/);
    expect(await allEvents(env)).toHaveLength(120);

    const other = new TestEnv(env.dialect);
    await other.start();
    try {
      await cli(other, 'seed:demo', '--events', '120');
      const there = (await allEvents(other)).map((e) => [e.title, e.start_date, e.venue?.venue]);
      expect(there).toEqual(before);
    } finally {
      await other.stop();
    }
  }, 60_000);

  it('rejects a missing or invalid --events', async () => {
    expect((await cli(env, 'seed:demo')).status).toBe(2);
    expect((await cli(env, 'seed:demo', '--events', '0')).status).toBe(2);
    expect((await cli(env, 'seed:demo', '--events', 'many')).status).toBe(2);
  });
});
