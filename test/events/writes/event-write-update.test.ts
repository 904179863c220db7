import type { EventRow } from '../../../src/db/rows';
import { DEFAULT_NOW, describeEachDb, type TestEnv } from '../../support/harness';
import { useImageServer } from '../../support/image-server';
import {
  UPDATE,
  UPDATE_BY_SLUG,
  createEvent,
  linksOf,
  minimal,
  rejected,
  rejectedParams,
  seedOrganizer,
  seedTerm,
  seedVenue,
  storedEvent,
  uniqueTitle,
  updateEvent,
} from './event-write-support';

/** An event with every scalar field set, and a venue, organizers and terms linked directly. */
async function richEvent(env: TestEnv, image: string): Promise<EventRow> {
  const parent = await createEvent(env, minimal());
  const event = await createEvent(env, {
    ...minimal({ title: uniqueTitle('Rich') }),
    description: '<p>Long text</p>',
    excerpt: 'Short',
    author: await env.userId('author'),
    date: '2026-10-01 12:00:00',
    status: 'draft',
    timezone: 'Europe/Paris',
    image,
    cost: '20$',
    website: 'https://rich.example.com',
    show_map: true,
    show_map_link: true,
    hide_from_listings: true,
    sticky: true,
    featured: true,
    password: 'pw',
    post_parent: parent.id,
  });
  const venue = await seedVenue(env);
  await env.db('events').where({ id: event.id }).update({ venue_id: venue });
  const organizers = [await seedOrganizer(env), await seedOrganizer(env)];
  await env
    .db('event_organizers')
    .insert(
      organizers.map((organizer_id, position) => ({ event_id: event.id, organizer_id, position })),
    );
  const terms = [await seedTerm(env, 'category'), await seedTerm(env, 'tag')];
  await env
    .db('event_terms')
    .insert(terms.map((term_id, i) => ({ event_id: event.id, term_id, position: i * 1000 })));
  return storedEvent(env, event.id);
}

describeEachDb('update_event', (env) => {
  const images = useImageServer();
  afterEach(() => {
    env.now = DEFAULT_NOW;
  });

  it('changes only the fields present: a title-only update leaves everything else', async () => {
    const before = await richEvent(env, images.url('/rich.jpg'));
    const links = await linksOf(env, before.id);
    env.now = new Date('2026-11-22T10:00:00Z');
    const title = uniqueTitle('Renamed');
    const out = await updateEvent(env, before.id, { title });
    expect(out.title).toBe(title);
    const after = await storedEvent(env, before.id);
    expect(after).toEqual({
      ...before,
      title,
      modified: '2026-11-22 10:00:00',
      modified_utc: '2026-11-22 10:00:00',
    });
    expect(await linksOf(env, before.id)).toEqual(links);
  });

  it('clears optional fields given as null or ""', async () => {
    const before = await richEvent(env, images.url('/rich.jpg'));
    const linked = await linksOf(env, before.id);
    expect(linked.terms).toHaveLength(2);
    await updateEvent(env, before.id, {
      description: null,
      excerpt: '',
      image: '',
      cost: null,
      website: '',
      show_map: null,
      show_map_link: false,
      hide_from_listings: null,
      sticky: false,
      featured: null,
      password: '',
      post_parent: null,
      timezone: null,
      venue: null,
      organizer: [],
    });
    const after = await storedEvent(env, before.id);
    expect(after).toMatchObject({
      description: '',
      excerpt: '',
      image_id: null,
      cost: '',
      currency_symbol: '',
      currency_position: '',
      website: '',
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      password: '',
      parent_id: null,
      venue_id: null,
      // A cleared time zone is the site's; the wall-clock times stay.
      timezone: 'UTC',
      start_date: before.start_date,
      utc_start_date: before.start_date,
    });
    // Organizers were cleared; the terms, not sent, stay.
    expect(await linksOf(env, before.id)).toEqual({ organizers: [], terms: linked.terms });
    // Fields not sent are untouched.
    expect(after).toMatchObject({
      title: before.title,
      slug: before.slug,
      status: before.status,
      author_id: before.author_id,
    });
  });

  it('applies a lone start_date or end_date against the stored other end', async () => {
    const { id } = await createEvent(env, minimal());
    const moved = await updateEvent(env, id, { start_date: '2027-01-10 11:00:00' });
    expect(moved).toMatchObject({
      start_date: '2027-01-10 11:00:00',
      end_date: '2027-01-10 12:00:00',
    });
    const late = await rejectedParams(
      env,
      UPDATE,
      { id, input: { start_date: '2027-01-10 12:30' } },
      ['start_date'],
    );
    expect(late.start_date).toMatch(/before/);
    await rejectedParams(env, UPDATE, { id, input: { end_date: '2027-01-10 10:59' } }, [
      'end_date',
    ]);
    await rejectedParams(env, UPDATE, { id, input: { start_date: null } }, ['start_date']);
    await rejectedParams(env, UPDATE, { id, input: { end_date: 'soonish' } }, ['end_date']);
    const both = await updateEvent(env, id, {
      start_date: '2027-02-01 08:00',
      end_date: '2027-02-01 09:00',
    });
    expect(both).toMatchObject({
      start_date: '2027-02-01 08:00:00',
      end_date: '2027-02-01 09:00:00',
    });
  });

  it('re-interprets the stored wall-clock times when only the time zone changes', async () => {
    const { id } = await createEvent(env, minimal());
    const out = await updateEvent(env, id, { timezone: 'America/New_York' });
    expect(out).toMatchObject({
      timezone: 'America/New_York',
      start_date: '2027-01-10 10:00:00',
      end_date: '2027-01-10 12:00:00',
      utc_start_date: '2027-01-10 15:00:00',
      utc_end_date: '2027-01-10 17:00:00',
    });
    const paris = await updateEvent(env, id, {
      timezone: 'Europe/Paris',
      start_date: '2027-01-10 18:00',
      end_date: '2027-01-10 20:00',
    });
    expect(paris).toMatchObject({
      utc_start_date: '2027-01-10 17:00:00',
      utc_end_date: '2027-01-10 19:00:00',
    });
  });

  it('rounds stored dates when all_day is switched on', async () => {
    const { id } = await createEvent(env, minimal({ end_date: '2027-01-12 12:00:00' }));
    const out = await updateEvent(env, id, { all_day: true });
    expect(out).toMatchObject({
      all_day: true,
      start_date: '2027-01-10 00:00:00',
      end_date: '2027-01-12 23:59:59',
    });
    const off = await updateEvent(env, id, { all_day: false });
    expect(off).toMatchObject({ all_day: false, start_date: '2027-01-10 00:00:00' });
  });

  it('reads `date` in the event time zone', async () => {
    const { id } = await createEvent(env, minimal({ timezone: 'America/New_York' }));
    await updateEvent(env, id, { date: '2027-01-01 10:00:00' });
    expect(await storedEvent(env, id)).toMatchObject({
      date: '2027-01-01 15:00:00',
      date_utc: '2027-01-01 15:00:00',
    });
  });

  it('changes the slug only when given, keeping it unique', async () => {
    const a = await createEvent(env, minimal());
    const b = await createEvent(env, minimal());
    const renamed = await updateEvent(env, b.id, { title: uniqueTitle('New title') });
    expect(renamed.slug).toBe(b.slug);
    const taken = await updateEvent(env, b.id, { slug: a.slug });
    expect(taken.slug).toBe(`${a.slug}-2`);
    const same = await updateEvent(env, a.id, { slug: a.slug });
    expect(same.slug).toBe(a.slug);
  });

  it('updates by slug, and input.slug renames', async () => {
    const { id, slug } = await createEvent(env, minimal());
    const newSlug = `${slug}-renamed`;
    const data = await env.ok(
      UPDATE_BY_SLUG,
      { slug, input: { slug: newSlug, sticky: true } },
      { as: 'administrator' },
    );
    expect(data.update_event_by_slug).toMatchObject({ id, slug: newSlug });
    expect((await storedEvent(env, id)).sticky).toBe(true);
    const gone = await rejected(env, UPDATE_BY_SLUG, { slug, input: { title: 'x' } });
    expect(gone).toMatchObject({ code: 'NOT_FOUND', rest_code: 'rest-event-not-found' });
  });

  it('answers 404 for an unknown id, changing nothing', async () => {
    const ext = await rejected(env, UPDATE, { id: 987654, input: { title: 'x' } });
    expect(ext).toMatchObject({ code: 'NOT_FOUND', rest_code: 'rest-event-not-found' });
  });

  it('changes the status only when given, scaled back for contributors', async () => {
    const { id } = await createEvent(env, minimal(), 'contributor');
    expect((await updateEvent(env, id, { title: uniqueTitle() }, 'contributor')).status).toBe(
      'draft',
    );
    expect((await updateEvent(env, id, { status: 'publish' }, 'contributor')).status).toBe(
      'pending',
    );
    // An editor saving without a status does not publish it (the reference would).
    expect((await updateEvent(env, id, { sticky: true }, 'editor')).status).toBe('pending');
    expect((await updateEvent(env, id, { status: 'publish' }, 'editor')).status).toBe('publish');
    // Published now: its contributor may no longer edit it.
    const ext = await rejected(env, UPDATE, { id, input: { title: 'x' } }, 'contributor');
    expect(ext).toMatchObject({ code: 'FORBIDDEN', rest_code: 'rest_forbidden' });
  });

  it('lets contributors and authors edit only their own events', async () => {
    const { id } = await createEvent(env, minimal({ status: 'draft' }));
    for (const role of ['contributor', 'author', 'subscriber'] as const) {
      const ext = await rejected(env, UPDATE, { id, input: { title: 'x' } }, role);
      expect(ext.code).toBe('FORBIDDEN');
    }
    const own = await createEvent(env, minimal(), 'author');
    expect((await updateEvent(env, own.id, { featured: true }, 'author')).id).toBe(own.id);
  });

  const invalidValues: [string, unknown][] = [
    ['title', ''],
    ['title', null],
    ['website', 'foo'],
    ['author', 999999],
    ['image', 'not a url'],
    ['timezone', 'Nowhere/Special'],
    ['status', 'trash'],
    ['cost', { a: 1 }],
    ['date_utc', 'foo'],
  ];
  for (const [name, value] of invalidValues) {
    it(`rejects ${name} = ${JSON.stringify(value)}, changing nothing`, async () => {
      const { id } = await createEvent(env, minimal());
      await rejectedParams(env, UPDATE, { id, input: { [name]: value } }, [name]);
    });
  }

  it('rejects a parent that is the event itself or one of its descendants', async () => {
    const root = await createEvent(env, minimal());
    const child = await createEvent(env, minimal({ post_parent: root.id }));
    const grandchild = await createEvent(env, minimal({ post_parent: child.id }));
    await rejectedParams(env, UPDATE, { id: root.id, input: { post_parent: root.id } }, [
      'post_parent',
    ]);
    await rejectedParams(env, UPDATE, { id: root.id, input: { post_parent: grandchild.id } }, [
      'post_parent',
    ]);
    await updateEvent(env, grandchild.id, { post_parent: root.id });
    expect((await storedEvent(env, grandchild.id)).parent_id).toBe(root.id);
  });
});
