import { describeEachDb, type TestEnv } from '../../support/harness';
import { useImageServer } from '../../support/image-server';
import {
  CREATE,
  DELETE,
  UPDATE,
  createEvent,
  linksOf,
  minimal,
  rejectedParams,
  seedOrganizer,
  seedTerm,
  seedVenue,
  storedEvent,
  uniqueTitle,
  updateEvent,
} from './event-write-support';

/** Venue, organizers, categories and tags on event writes (through their services). */

async function countOf(env: TestEnv, termId: number): Promise<number> {
  const row = await env.db('terms').where({ id: termId }).first();
  return Number(row.count);
}

async function termIdByName(env: TestEnv, taxonomy: string, name: string): Promise<number> {
  const rows = await env.db('terms').where({ taxonomy, name });
  expect(rows).toHaveLength(1);
  return Number(rows[0].id);
}

describeEachDb('event writes: venue, organizers, terms', (env) => {
  it('links a venue by id, or creates one from an inline object', async () => {
    const venue = await seedVenue(env);
    const byId = await createEvent(env, minimal({ venue: { id: venue } }));
    expect((await storedEvent(env, byId.id)).venue_id).toBe(venue);

    const name = uniqueTitle('Inline Hall');
    const inline = await createEvent(
      env,
      minimal({
        venue: { venue: name, city: 'Springfield', country: 'United States', state: 'IL' },
      }),
    );
    const created = await env.db('venues').where({ title: name });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ city: 'Springfield', state: 'IL' });
    expect((await storedEvent(env, inline.id)).venue_id).toBe(Number(created[0].id));

    // The same inline venue again is de-duplicated, not created twice.
    const again = await createEvent(env, minimal({ venue: { venue: name } }));
    expect((await storedEvent(env, again.id)).venue_id).toBe(Number(created[0].id));
    expect(await env.db('venues').where({ title: name })).toHaveLength(1);
  });

  it('replaces and unlinks the venue on update', async () => {
    const [a, b] = [await seedVenue(env), await seedVenue(env)];
    const { id } = await createEvent(env, minimal({ venue: { id: a } }));
    await updateEvent(env, id, { venue: { id: b } });
    expect((await storedEvent(env, id)).venue_id).toBe(b);
    await updateEvent(env, id, { title: uniqueTitle() });
    expect((await storedEvent(env, id)).venue_id).toBe(b);
    await updateEvent(env, id, { venue: null });
    expect((await storedEvent(env, id)).venue_id).toBeNull();
    await updateEvent(env, id, { venue: { id: a } });
    await updateEvent(env, id, { venue: { id: 0 } });
    expect((await storedEvent(env, id)).venue_id).toBeNull();
  });

  it('rejects an unknown venue or organizer id, changing nothing', async () => {
    await rejectedParams(env, CREATE, { input: minimal({ venue: { id: 987654 } }) }, ['venue']);
    const organizer = await seedOrganizer(env);
    await rejectedParams(
      env,
      CREATE,
      { input: minimal({ organizer: [{ id: organizer }, { id: 987654 }] }) },
      ['organizer'],
    );
    // A failing organizer after a created inline venue rolls the venue back too.
    await rejectedParams(
      env,
      CREATE,
      {
        input: minimal({
          venue: { venue: uniqueTitle('Rolled back') },
          organizer: [{ organizer: uniqueTitle('Rolled back org') }, { id: 987654 }],
        }),
      },
      ['organizer'],
    );
    const { id } = await createEvent(env, minimal({ organizer: [{ id: organizer }] }));
    await rejectedParams(env, UPDATE, { id, input: { venue: { id: 987654 } } }, ['venue']);
  });

  it('links organizers in the given order, ids and inline mixed, duplicates dropped', async () => {
    const [one, two] = [await seedOrganizer(env), await seedOrganizer(env)];
    const name = uniqueTitle('Inline Org');
    const { id } = await createEvent(
      env,
      minimal({
        organizer: [
          { id: two },
          { organizer: name, email: 'org@example.com' },
          { id: one },
          { id: two },
        ],
      }),
    );
    const created = await env.db('organizers').where({ title: name });
    expect(created).toHaveLength(1);
    expect((await linksOf(env, id)).organizers).toEqual([two, Number(created[0].id), one]);

    await updateEvent(env, id, { organizer: [{ id: one }] });
    expect((await linksOf(env, id)).organizers).toEqual([one]);
    await updateEvent(env, id, { sticky: true });
    expect((await linksOf(env, id)).organizers).toEqual([one]);
    await updateEvent(env, id, { organizer: [] });
    expect((await linksOf(env, id)).organizers).toEqual([]);
  });

  it('links categories and tags by id, slug or name, creating unknown names', async () => {
    const cat = await seedTerm(env, 'category');
    const tag = await seedTerm(env, 'tag');
    const newCat = uniqueTitle('New Category');
    const newTag = uniqueTitle('New Tag');
    const { id } = await createEvent(
      env,
      minimal({ categories: [String(cat), newCat], tags: [newTag, String(tag)] }),
    );
    const createdCat = await termIdByName(env, 'category', newCat);
    const createdTag = await termIdByName(env, 'tag', newTag);
    expect((await linksOf(env, id)).terms).toEqual([cat, createdCat, createdTag, tag]);

    // Only tags change; categories stay.
    await updateEvent(env, id, { tags: [String(tag)] });
    expect((await linksOf(env, id)).terms).toEqual([cat, createdCat, tag]);
    await updateEvent(env, id, { categories: [] });
    expect((await linksOf(env, id)).terms).toEqual([tag]);
    await rejectedParams(env, UPDATE, { id, input: { categories: ['987654'] } }, ['categories']);
  });

  it('keeps term counts to published events through every write', async () => {
    const cat = await seedTerm(env, 'category');
    const tag = await seedTerm(env, 'tag');
    const terms = { categories: [String(cat)], tags: [String(tag)] };
    const published = await createEvent(env, minimal(terms));
    await createEvent(env, minimal({ ...terms, status: 'draft' }));
    expect([await countOf(env, cat), await countOf(env, tag)]).toEqual([1, 1]);

    const second = await createEvent(env, minimal(terms));
    expect(await countOf(env, cat)).toBe(2);
    await updateEvent(env, second.id, { status: 'draft' });
    expect(await countOf(env, cat)).toBe(1);
    await updateEvent(env, second.id, { status: 'publish' });
    expect(await countOf(env, cat)).toBe(2);

    // Moving an event off a term lowers the old term's count and raises the new one's.
    const other = await seedTerm(env, 'category');
    await updateEvent(env, second.id, { categories: [String(other)] });
    expect([await countOf(env, cat), await countOf(env, other)]).toEqual([1, 1]);

    await env.ok(DELETE, { id: published.id }, { as: 'administrator' });
    expect([await countOf(env, cat), await countOf(env, tag)]).toEqual([0, 1]);
    await env.ok(DELETE, { id: second.id, force: true }, { as: 'administrator' });
    expect([await countOf(env, other), await countOf(env, tag)]).toEqual([0, 0]);
  });
});

describeEachDb('event writes: the answer renders through the Event type', (env) => {
  const images = useImageServer();
  it('answers the written event with its links, as a read would', async () => {
    const venue = await seedVenue(env);
    const organizer = await seedOrganizer(env);
    const category = await seedTerm(env, 'category');
    const data = await env.ok(
      `mutation ($input: EventInput!) {
        create_event(input: $input) {
          id author website cost image { url } venue { id } organizer { id }
          categories { id count } tags { name }
        }
      }`,
      {
        input: minimal({
          website: 'https://rendered.example.com',
          cost: '$15',
          image: images.url('/rendered.png'),
          venue: { id: venue },
          organizer: [{ id: organizer }],
          categories: [String(category)],
          tags: ['Rendered tag'],
        }),
      },
      { as: 'administrator' },
    );
    const admin = await env.db('users').where({ login: 'admin' }).first();
    expect(data.create_event).toMatchObject({
      author: String(admin.id),
      website: 'https://rendered.example.com',
      cost: '$15',
      image: { url: images.url('/rendered.png') },
      venue: { id: venue },
      organizer: [{ id: organizer }],
      categories: [{ id: category, count: 1 }],
      tags: [{ name: 'Rendered tag' }],
    });
  });
});
