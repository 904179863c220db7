import { insertVenue, resetCalendar } from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';
import { useImageServer } from '../support/image-server';

/**
 * Password-protected events (docs/contract.md §9), written through the API: a single
 * read needs the matching `password` (403 event-password-protected otherwise) unless the caller
 * may edit the event; lists keep the event but redact its details.
 */

const FIELDS = `id title status start_date end_date url rest_url description excerpt cost website
  image { url } all_day show_map show_map_link hide_from_listings sticky featured
  categories { id } tags { id } venue { id } organizer { id }`;
const CREATE = `mutation($input: EventInput!) { create_event(input: $input) { id slug } }`;
const BY_ID = `query($id: Int!, $password: String) { event(id: $id, password: $password) { ${FIELDS} } }`;
const BY_SLUG = `query($slug: String!, $password: String) {
  event_by_slug(slug: $slug, password: $password) { ${FIELDS} } }`;
const LIST = `query($include: [Int!]) { events(include: $include) { events { ${FIELDS} } } }`;

describeEachDb('password-protected events', (env) => {
  const images = useImageServer();
  let id: number;
  let slug: string;
  let full: Record<string, unknown>;

  beforeAll(async () => {
    await resetCalendar(env);
    const venue = await insertVenue(env, { title: 'Secret hall' });
    const input = {
      title: 'Members only',
      start_date: '2026-12-10 19:00',
      end_date: '2026-12-10 22:00',
      description: '<p>The details</p>',
      excerpt: 'Short',
      cost: '25',
      website: 'https://members.example.com',
      image: images.url('/members.png'),
      featured: true,
      categories: ['Club'],
      tags: ['Members'],
      venue: { id: venue },
      organizer: [{ organizer: 'The club' }],
      password: 'open sesame',
    };
    const made = await env.ok(CREATE, { input }, { as: 'author' });
    ({ id, slug } = made.create_event);
    full = (await env.ok(BY_ID, { id, password: 'open sesame' }, { as: 'anonymous' })).event;
  });

  it('answers 403 event-password-protected without the right password, 200 with it', async () => {
    expect(full).toMatchObject({
      description: '<p>The details</p>',
      cost: '$25',
      featured: true,
      venue: { id: expect.any(Number) },
      organizer: [{ id: expect.any(Number) }],
    });
    for (const password of [undefined, 'wrong', 'OPEN SESAME', '']) {
      for (const [query, vars] of [
        [BY_ID, { id, password }],
        [BY_SLUG, { slug, password }],
      ] as const) {
        const result = await env.gql(query, vars, { as: 'anonymous' });
        expect(result.errors?.[0]?.extensions).toEqual({
          code: 'FORBIDDEN',
          rest_code: 'event-password-protected',
        });
      }
    }
    const bySlug = await env.ok(BY_SLUG, { slug, password: 'open sesame' }, { as: 'anonymous' });
    expect(bySlug.event_by_slug).toEqual(full);
  });

  it('lets callers who may edit the event read it without the password', async () => {
    for (const caller of ['author', 'editor', 'administrator'] as const) {
      expect((await env.ok(BY_ID, { id }, { as: caller })).event).toEqual(full);
    }
    // Seeing unpublished records is not editing: a contributor still needs the password.
    for (const caller of ['contributor', 'subscriber'] as const) {
      const result = await env.gql(BY_ID, { id }, { as: caller });
      expect(result.errors?.[0]?.extensions?.rest_code).toBe('event-password-protected');
    }
  });

  it('keeps the event in lists with its details redacted', async () => {
    const [anonymous] = (await env.ok(LIST, { include: [id] }, { as: 'anonymous' })).events.events;
    expect(anonymous).toEqual({
      id,
      title: 'Members only',
      status: 'publish',
      start_date: '2026-12-10 19:00:00',
      end_date: '2026-12-10 22:00:00',
      url: full.url,
      rest_url: full.rest_url,
      description: '',
      excerpt: '',
      cost: '',
      website: '',
      image: null,
      all_day: null,
      show_map: null,
      show_map_link: null,
      hide_from_listings: null,
      sticky: null,
      featured: null,
      categories: [],
      tags: [],
      venue: null,
      organizer: [],
    });
    const [contributor] = (await env.ok(LIST, { include: [id] }, { as: 'contributor' })).events
      .events;
    expect(contributor).toEqual(anonymous);
    for (const caller of ['author', 'editor'] as const) {
      const [seen] = (await env.ok(LIST, { include: [id] }, { as: caller })).events.events;
      expect(seen).toEqual(full);
    }
  });

  it('removes the protection when the password is cleared', async () => {
    const update = `mutation($id: Int!) { update_event(id: $id, input: { password: "" }) { id } }`;
    await env.ok(update, { id }, { as: 'author' });
    expect((await env.ok(BY_ID, { id }, { as: 'anonymous' })).event).toEqual(full);
  });
});
