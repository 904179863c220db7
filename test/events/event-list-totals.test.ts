import { createDb } from '../../src/db/knex';
import { bumpListGeneration } from '../../src/db/list-counts';
import {
  insertEvent,
  insertOrganizer,
  insertTerm,
  insertVenue,
  resetCalendar,
} from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';
import { writeFromAnotherProcess } from '../support/other-process';
import { RestClient } from '../support/rest/rest-client';

/**
 * List totals are counted once and reused while no calendar write happened
 * (src/db/list-counts.ts): every way a write can reach the database must show in the
 * next total — API writes, writes of another process that bump the write generation, and
 * direct writes of this process (fixtures).
 */

const DATES = { start_date: '2027-03-10 19:00:00', end_date: '2027-03-10 22:30:00' };

describeEachDb('events list: cached totals', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };

  async function total(query = ''): Promise<number> {
    const response = await rest.get(`/events?start_date=2027-01-01${query}`);
    expect(response.status).toBe(200);
    return response.body.total as number;
  }

  /** The write generation other processes compare their cached totals with. */
  async function generation(): Promise<number> {
    const [row] = await env.db('list_generations').sum({ n: 'n' });
    return Number(row?.n ?? 0);
  }

  beforeEach(() => resetCalendar(env));

  it('counts a repeated list once, then reads only the write generation', async () => {
    await insertEvent(env, { title: 'Jazz night', start: '2027-03-01 20:00:00' });
    const totals: number[] = [];
    const statements = await env.statementsOf(async () => {
      totals.push(await total('&search=jazz'), await total('&search=jazz'));
    });
    expect(totals).toEqual([1, 1]);
    expect(statements.filter((sql) => /count\(\*\)/i.test(sql))).toHaveLength(1);
  });

  it('shows every API write in the next total: create, update, trash, delete', async () => {
    const music = await insertTerm(env, 'category', 'Music');
    const post = (fields: Record<string, unknown>) =>
      rest.post('/events', { ...DATES, ...fields }, admin);
    expect([await total(), await total('&search=gig'), await total('&categories=music')]).toEqual([
      0, 0, 0,
    ]);
    const before = await generation();
    const gig = (await post({ title: 'Gig', categories: [String(music)] })).body;
    await post({ title: 'Talk' });
    // Each write transaction moves the generation, for the other processes' caches.
    expect(await generation()).toBe(before + 2);
    expect([await total(), await total('&search=gig'), await total('&categories=music')]).toEqual([
      2, 1, 1,
    ]);
    expect((await rest.post(`/events/${gig.id}`, { categories: [] }, admin)).status).toBe(200);
    expect(await total('&categories=music')).toBe(0);
    expect((await rest.post(`/events/${gig.id}`, { title: 'Talk' }, admin)).status).toBe(200);
    expect(await total('&search=gig')).toBe(0);
    expect((await rest.delete(`/events/${gig.id}`, admin)).status).toBe(200);
    expect(await total()).toBe(1);
  });

  it('shows direct writes of this process (fixtures) in the next total', async () => {
    const music = await insertTerm(env, 'category', 'Music');
    await insertEvent(env, { title: 'One', start: '2027-03-01 20:00:00', categories: [music] });
    expect([await total(), await total('&categories=music')]).toEqual([1, 1]);
    await insertEvent(env, { title: 'Two', start: '2027-03-02 20:00:00' });
    await env.db('event_terms').delete();
    expect([await total(), await total('&categories=music')]).toEqual([2, 0]);
  });

  it("sees another process's writes through the write generation", async () => {
    const id = await insertEvent(env, { title: 'One', start: '2027-03-01 20:00:00' });
    await insertEvent(env, { title: 'Two', start: '2027-03-02 20:00:00' });
    expect(await total()).toBe(2);
    const other = createDb({ databaseUrl: env.config.databaseUrl, poolMax: 1 });
    try {
      // Bypassing the write transactions: this process keeps its total until the next write.
      await other('events').where({ id }).update({ status: 'draft' });
      expect(await total()).toBe(2);
      await other.transaction((trx) => bumpListGeneration(trx));
      expect(await total()).toBe(1);
      await other.transaction(async (trx) => {
        await trx('events').where({ id }).update({ status: 'publish' });
        await bumpListGeneration(trx);
      });
      expect(await total()).toBe(2);
    } finally {
      await other.destroy();
    }
  });
  it('reads a page and its kept total in one statement, and counts again after a write', async () => {
    for (const day of ['01', '02', '03']) {
      await insertEvent(env, { title: `Day ${day}`, start: `2027-03-${day} 20:00:00` });
    }
    const list = () => rest.get('/events?start_date=2027-01-01&per_page=2&page=2');
    // The first page counts the total (the response cache, if on, keeps only that page).
    expect((await rest.get('/events?start_date=2027-01-01&per_page=2')).body.total).toBe(3);
    let warm!: Awaited<ReturnType<typeof list>>;
    const statements = await env.statementsOf(async () => {
      warm = await list();
    });
    expect(warm.body.events.map((e: { title: string }) => e.title)).toEqual(['Day 03']);
    expect(warm.body.total).toBe(3);
    // No key of the page's generation column reaches the body.
    expect(Object.keys(warm.body.events[0])).not.toContain('__list_generation');
    const events = statements.filter((sql) => /from [`"]?events[`"]?/i.test(sql));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(/list_generations/);
    // A write elsewhere: the same page is read with a stale kept total, which is counted again;
    // past the new end, the page is the contract's 404, as a first read would answer.
    await writeFromAnotherProcess(env, (trx) => trx('events').where({ title: 'Day 03' }).delete());
    const after = await list();
    expect(after.status).toBe(404);
    expect((await rest.get('/events?start_date=2027-01-01&per_page=2')).body.total).toBe(2);
  });

  it('keeps venue and organizer totals the same way, and sees writes through the generation', async () => {
    await insertVenue(env, { title: 'Hall A' });
    const venues = async () => (await rest.get('/venues')).body.total as number;
    const organizers = async () => (await rest.get('/organizers')).body.total as number;
    expect([await venues(), await organizers()]).toEqual([1, 0]);
    expect([await venues(), await organizers()]).toEqual([1, 0]);
    // Fixtures of this process write outside transactions: seen at once.
    await insertOrganizer(env, { title: 'Org A' });
    expect(await organizers()).toBe(1);
    await writeFromAnotherProcess(env, (trx) =>
      trx('venues').where({ title: 'Hall A' }).update({ status: 'draft' }),
    );
    expect(await venues()).toBe(0);
  });
});
