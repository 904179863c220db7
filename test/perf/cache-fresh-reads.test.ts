import { createDb } from '../../src/db/knex';
import { describeEachDb, type TestEnv } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * The response cache never serves stale data (docs/performance.md "Response cache"): with the
 * cache on, every write — of each entity and each relation, through REST, GraphQL, or SQL
 * outside a transaction — is visible to the very next anonymous read. Each read is made once
 * before the write, so the cache holds the old answer when the write commits.
 */

const admin = { as: 'administrator' as const };

function freshReads(env: TestEnv): void {
  const rest = new RestClient(env);
  let event: number;
  let venues: number[];
  let organizers: number[];
  let categories: number[];
  let tags: number[];

  async function created(path: string, body: Record<string, unknown>): Promise<number> {
    const response = await rest.post(path, body, admin);
    expect(response.status).toBe(201);
    return response.body.id as number;
  }

  async function changed(path: string, body: Record<string, unknown>): Promise<void> {
    const response = await rest.post(path, body, admin);
    expect(response.status).toBe(200);
  }

  /** Reads `path` twice (the second from the cache), then returns a reader of it. */
  async function cached(path: string): Promise<() => Promise<any>> {
    const first = await rest.get(path);
    const second = await rest.get(path);
    expect(second.text).toBe(first.text);
    return async () => (await rest.get(path)).body;
  }

  beforeAll(async () => {
    categories = [
      await created('/categories', { name: 'Concerts' }),
      await created('/categories', { name: 'Talks' }),
    ];
    tags = [await created('/tags', { name: 'free' }), await created('/tags', { name: 'outdoor' })];
    venues = [
      await created('/venues', { venue: 'Riverside Hall' }),
      await created('/venues', { venue: 'Civic Arena' }),
    ];
    organizers = [
      await created('/organizers', { organizer: 'Harbor Society' }),
      await created('/organizers', { organizer: 'Lantern Club' }),
    ];
    event = await created('/events', {
      title: 'Jazz Night',
      start_date: '2027-01-04 19:00:00',
      end_date: '2027-01-04 21:00:00',
      venue: venues[0],
      organizer: [organizers[0]],
      categories: [categories[0]],
      tags: [tags[0]],
    });
  }, 60_000);

  it('an event', async () => {
    const single = await cached(`/events/${event}`);
    const list = await cached('/events');
    await changed(`/events/${event}`, { title: 'Jazz Evening' });
    expect((await single()).title).toBe('Jazz Evening');
    expect((await list()).events[0].title).toBe('Jazz Evening');
  });

  it('a new event, in the list and its total', async () => {
    const list = await cached('/events');
    const before = (await list()).total as number;
    await created('/events', {
      title: 'Chess Club',
      start_date: '2027-01-05 19:00:00',
      end_date: '2027-01-05 21:00:00',
    });
    const after = await list();
    expect(after.total).toBe(before + 1);
    expect(after.events.map((e: { title: string }) => e.title)).toContain('Chess Club');
  });

  it('a venue, in its own answer and in the event', async () => {
    const single = await cached(`/venues/${venues[0]}`);
    const ofEvent = await cached(`/events/${event}`);
    await changed(`/venues/${venues[0]}`, { venue: 'Riverside Pavilion' });
    expect((await single()).venue).toBe('Riverside Pavilion');
    expect((await ofEvent()).venue.venue).toBe('Riverside Pavilion');
  });

  it('an organizer, in its own answer and in the event', async () => {
    const single = await cached(`/organizers/${organizers[0]}`);
    const ofEvent = await cached(`/events/${event}`);
    await changed(`/organizers/${organizers[0]}`, { organizer: 'Harbor Guild' });
    expect((await single()).organizer).toBe('Harbor Guild');
    expect((await ofEvent()).organizer[0].organizer).toBe('Harbor Guild');
  });

  it('a category and a tag, in their own answers and in the event', async () => {
    const category = await cached(`/categories/${categories[0]}`);
    const tag = await cached(`/tags/${tags[0]}`);
    const ofEvent = await cached(`/events/${event}`);
    await changed(`/categories/${categories[0]}`, { name: 'Live Music' });
    expect((await category()).name).toBe('Live Music');
    expect((await ofEvent()).categories[0].name).toBe('Live Music');
    await changed(`/tags/${tags[0]}`, { name: 'no charge' });
    expect((await tag()).name).toBe('no charge');
    expect((await ofEvent()).tags[0].name).toBe('no charge');
  });

  it('the event’s venue, organizers and terms', async () => {
    const ofEvent = await cached(`/events/${event}`);
    const byVenue = await cached(`/events?venue=${venues[1]}`);
    const byCategory = await cached(`/events?categories=${categories[1]}`);
    expect((await byVenue()).total).toBe(0);
    await changed(`/events/${event}`, { venue: venues[1] });
    expect((await ofEvent()).venue.id).toBe(venues[1]);
    expect((await byVenue()).total).toBe(1);
    await changed(`/events/${event}`, { organizer: [organizers[1]] });
    expect((await ofEvent()).organizer.map((o: { id: number }) => o.id)).toEqual([organizers[1]]);
    await changed(`/events/${event}`, { categories: [categories[1]], tags: [tags[1]] });
    const after = await ofEvent();
    expect(after.categories.map((c: { id: number }) => c.id)).toEqual([categories[1]]);
    expect(after.tags.map((t: { id: number }) => t.id)).toEqual([tags[1]]);
    expect((await byCategory()).total).toBe(1);
  });

  it('a category’s parent', async () => {
    const single = await cached(`/categories/${categories[1]}`);
    const list = await cached('/categories');
    await changed(`/categories/${categories[1]}`, { parent: categories[0] });
    expect((await single()).parent).toBe(categories[0]);
    const listed = (await list()).categories.find((c: { id: number }) => c.id === categories[1]);
    expect(listed.parent).toBe(categories[0]);
  });

  it('a write through GraphQL', async () => {
    const single = await cached(`/events/${event}`);
    await env.ok(
      `mutation ($id: Int!) { update_event(id: $id, input: { title: "Jazz Late" }) { id } }`,
      { id: event },
      admin,
    );
    expect((await single()).title).toBe('Jazz Late');
  });

  it('a write by SQL outside a transaction (fixtures, scripts)', async () => {
    const single = await cached(`/venues/${venues[1]}`);
    await env.db('venues').where({ id: venues[1] }).update({ phone: '555-0199' });
    expect((await single()).phone).toBe('555-0199');
  });

  it('trash and deletes', async () => {
    await cached(`/events/${event}`);
    const list = await cached('/events');
    const venueList = await cached('/venues');
    await cached(`/tags/${tags[0]}`);
    const before = (await list()).total as number;
    expect((await rest.delete(`/events/${event}`, admin)).status).toBe(200);
    expect((await rest.get(`/events/${event}`)).status).not.toBe(200);
    expect((await list()).total).toBe(before - 1);
    const venuesBefore = (await venueList()).total as number;
    expect((await rest.delete(`/venues/${venues[0]}?force=true`, admin)).status).toBe(200);
    expect((await venueList()).total).toBe(venuesBefore - 1);
    expect((await rest.delete(`/tags/${tags[0]}`, admin)).status).toBe(200);
    expect((await rest.get(`/tags/${tags[0]}`)).status).toBe(404);
  });
}

describeEachDb('fresh reads, cache of this process', freshReads, { RESPONSE_CACHE: 'process' });
describeEachDb('fresh reads, cache checked against the database', freshReads, {
  RESPONSE_CACHE: 'on',
});

describeEachDb(
  'fresh reads after a write by another process',
  (env) => {
    const rest = new RestClient(env);

    it('sees a calendar write committed through another connection pool', async () => {
      const created = await rest.post(
        '/venues',
        { venue: 'Granite Studio' },
        { as: 'administrator' },
      );
      const id = created.body.id as number;
      const path = `/venues/${id}`;
      const first = await rest.get(path);
      expect((await rest.get(path)).text).toBe(first.text);
      expect(first.body.phone).not.toBe('555-0142');
      // Another process: its own pool, which this process does not watch; its write
      // transaction bumps the write generation as every calendar write does.
      const other = createDb(env.config);
      try {
        await other.transaction(async (trx) => {
          await trx('venues').where({ id }).update({ phone: '555-0142' });
          await trx('list_generations')
            .insert({ shard: 7, n: 1 })
            .onConflict('shard')
            .merge({ n: trx.raw('?? + 1', ['list_generations.n']) });
        });
      } finally {
        await other.destroy();
      }
      expect((await rest.get(path)).body.phone).toBe('555-0142');
    });
  },
  { RESPONSE_CACHE: 'on' },
);
