import { localToUtc } from '../../../src/lib/dates';
import { describeEachDb } from '../../support/harness';
import { RestClient, type RestResponse } from '../../support/rest/rest-client';

/**
 * Races (ISSUE 5): parallel requests through `yoga.fetch`. On MySQL they truly overlap (the
 * harness pool has 4 connections); on SQLite the single connection serialises them. Every
 * acknowledged change must survive, slugs stay distinct, inline venues/organizers/terms are
 * created once.
 */

const DATES = { start_date: '2027-03-10 19:00:00', end_date: '2027-03-10 22:30:00' };
const ROUNDS = 3;

describeEachDb('concurrent writes', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };

  async function createEvent(fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const response = await rest.post('/events', { title: 'Race', ...DATES, ...fields }, admin);
    expect(response.status).toBe(201);
    return response.body;
  }

  function statuses(responses: RestResponse[]): number[] {
    return responses.map((r) => r.status);
  }

  it('parallel partial updates of one event lose no acknowledged field', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const event = await createEvent({ title: `Partial ${round}` });
      const patches: Record<string, unknown>[] = [
        { title: `Partial ${round} renamed` },
        { cost: '25' },
        { website: 'https://race.example.com' },
        { featured: true },
        { sticky: true },
        { excerpt: 'Short text' },
        { description: '<p>Long text</p>' },
        { show_map: true },
        // These two both rewrite the date columns: without a row lock one undoes the other.
        { start_date: '2027-03-10 18:00:00' },
        { timezone: 'Europe/Paris' },
        { organizer: [{ organizer: `Partial org ${round}` }] },
        { categories: [`Partial category ${round}`] },
      ];
      await env.userId('administrator'); // mint the token before the race, not inside it
      const responses = await Promise.all(
        patches.map((patch) => rest.patch(`/events/${event.id}`, patch, admin)),
      );
      expect(statuses(responses)).toEqual(patches.map(() => 200));
      const final = (await rest.get(`/events/${event.id}`, admin)).body;
      expect(final).toMatchObject({
        title: `Partial ${round} renamed`,
        cost: '$25',
        website: 'https://race.example.com',
        featured: true,
        sticky: true,
        excerpt: expect.stringContaining('Short text'),
        description: '<p>Long text</p>',
        show_map: true,
        start_date: '2027-03-10 18:00:00',
        end_date: '2027-03-10 22:30:00',
        timezone: 'Europe/Paris',
        utc_start_date: localToUtc('2027-03-10 18:00:00', 'Europe/Paris'),
        utc_end_date: localToUtc('2027-03-10 22:30:00', 'Europe/Paris'),
      });
      expect(final.organizer.map((o: { organizer: string }) => o.organizer)).toEqual([
        `Partial org ${round}`,
      ]);
      expect(final.categories.map((c: { name: string }) => c.name)).toEqual([
        `Partial category ${round}`,
      ]);
    }
  });

  it('parallel updates of the same field: every one acknowledged, the last writer wins', async () => {
    const event = await createEvent({ title: 'Same field' });
    const titles = Array.from({ length: 8 }, (_, i) => `Same field ${i}`);
    const responses = await Promise.all(
      titles.map((title) => rest.patch(`/events/${event.id}`, { title }, admin)),
    );
    expect(statuses(responses)).toEqual(titles.map(() => 200));
    const final = (await rest.get(`/events/${event.id}`, admin)).body;
    expect(titles).toContain(final.title);
    // The stored value is the one the last committed write acknowledged.
    const [row] = await env.db('events').where({ id: event.id }).select('title', 'modified');
    expect(row.title).toBe(final.title);
  });

  it('parallel creates with the same title get distinct slugs', async () => {
    const n = 10;
    const responses = await Promise.all(
      Array.from({ length: n }, () =>
        rest.post('/events', { title: 'Slug Race', ...DATES }, admin),
      ),
    );
    expect(statuses(responses)).toEqual(Array(n).fill(201));
    const slugs = responses.map((r) => r.body.slug as string).sort();
    const expected = [
      'slug-race',
      ...Array.from({ length: n - 1 }, (_, i) => `slug-race-${i + 2}`),
    ];
    expect(slugs).toEqual(expected.sort());
    const stored = await env.db('events').where('title', 'Slug Race').pluck('slug');
    expect(stored.sort()).toEqual(expected.sort());
  });

  it('parallel venue creates with distinct descriptions get distinct slugs; GraphQL too', async () => {
    const n = 6;
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        rest.post('/venues', { venue: 'Slug Hall', description: `Room ${i}` }, admin),
      ),
    );
    expect(statuses(responses)).toEqual(Array(n).fill(201));
    expect(new Set(responses.map((r) => r.body.slug)).size).toBe(n);
    const results = await Promise.all(
      Array.from({ length: n }, () =>
        env.gql(
          `mutation($input: EventInput!) { create_event(input: $input) { id slug } }`,
          { input: { title: 'Gql Slug Race', ...DATES } },
          admin,
        ),
      ),
    );
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
    expect(new Set(results.map((r) => r.data?.create_event.slug)).size).toBe(n);
  });

  it('parallel inline creation of one venue name yields one venue', async () => {
    const n = 8;
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        rest.post(
          '/events',
          {
            title: `Venue race ${i}`,
            ...DATES,
            venue: { venue: 'Race Hall', city: 'Springfield' },
          },
          admin,
        ),
      ),
    );
    expect(statuses(responses)).toEqual(Array(n).fill(201));
    const venues = await env.db('venues').whereRaw('LOWER(title) = ?', ['race hall']);
    expect(venues).toHaveLength(1);
    expect(new Set(responses.map((r) => r.body.venue.id))).toEqual(new Set([venues[0].id]));
  });

  it('parallel inline organizers in any order are created once each', async () => {
    const n = 8;
    const names = ['Race Org A', 'race org b', 'Race Org C'];
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) => {
        // Different orders in different requests: the locks must not deadlock for good.
        const order = i % 2 ? [...names].reverse() : names;
        return rest.post(
          '/events',
          {
            title: `Organizer race ${i}`,
            ...DATES,
            organizer: order.map((organizer) => ({ organizer })),
          },
          admin,
        );
      }),
    );
    expect(statuses(responses)).toEqual(Array(n).fill(201));
    for (const name of names) {
      const rows = await env.db('organizers').whereRaw('LOWER(title) = ?', [name.toLowerCase()]);
      expect(rows).toHaveLength(1);
    }
    for (const r of responses) expect(r.body.organizer).toHaveLength(names.length);
  });

  it('parallel POST /venues with one name answer the same venue', async () => {
    const n = 6;
    const responses = await Promise.all(
      Array.from({ length: n }, () => rest.post('/venues', { venue: 'Dedup Race Hall' }, admin)),
    );
    expect(statuses(responses)).toEqual(Array(n).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await env.db('venues').where('title', 'Dedup Race Hall')).toHaveLength(1);
  });

  it('parallel events naming a new category and tag create each term once, counts right', async () => {
    const n = 8;
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        rest.post(
          '/events',
          { title: `Term race ${i}`, ...DATES, categories: ['Race Category'], tags: 'race-tag' },
          admin,
        ),
      ),
    );
    expect(statuses(responses)).toEqual(Array(n).fill(201));
    const category = await env.db('terms').where({ taxonomy: 'category', name: 'Race Category' });
    expect(category).toHaveLength(1);
    expect(Number(category[0].count)).toBe(n);
    const tag = await env.db('terms').where({ taxonomy: 'tag', slug: 'race-tag' });
    expect(tag).toHaveLength(1);
    expect(Number(tag[0].count)).toBe(n);
  });

  it('mixed parallel writes on one category keep its count exact', async () => {
    const existing = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        createEvent({ title: `Mixed ${i}`, categories: ['Mixed'] }),
      ),
    );
    const responses = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) =>
        rest.post('/events', { title: `Mixed new ${i}`, ...DATES, categories: ['Mixed'] }, admin),
      ),
      rest.patch(`/events/${existing[0]!.id}`, { status: 'draft' }, admin),
      rest.patch(`/events/${existing[1]!.id}`, { categories: ['Mixed', 'Mixed other'] }, admin),
      rest.patch(`/events/${existing[2]!.id}`, { categories: [] }, admin),
      rest.delete(`/events/${existing[3]!.id}`, admin),
      rest.delete(`/events/${existing[4]!.id}?force=true`, admin),
    ]);
    expect(statuses(responses)).toEqual([201, 201, 201, 201, 200, 200, 200, 200, 200]);
    const [term] = await env.db('terms').where({ taxonomy: 'category', name: 'Mixed' });
    const published = await env
      .db('event_terms')
      .join('events', 'events.id', 'event_terms.event_id')
      .where({ term_id: term.id, 'events.status': 'publish' })
      .count<{ n: number | string }[]>({ n: '*' });
    // Four new ones and existing[1]: draft, unlinked, trashed and deleted ones do not count.
    expect(Number(published[0]!.n)).toBe(5);
    expect(Number(term.count)).toBe(5);
  });

  it('parallel POST /categories with one name create it once; the others are told why', async () => {
    const n = 5;
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        rest.post('/categories', { name: 'Category Race', slug: `category-race-${i}` }, admin),
      ),
    );
    expect(statuses(responses).sort()).toEqual([201, ...Array(n - 1).fill(400)]);
    expect(await env.db('terms').where({ name: 'Category Race' })).toHaveLength(1);
  });
});
