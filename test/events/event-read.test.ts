import type { Role } from '../../src/users/roles';
import { describeEachDb } from '../support/harness';
import {
  insertEvent,
  insertOrganizer,
  insertVenue,
  resetCalendar,
} from '../support/event-fixtures';

const ON = '2027-03-10 19:00:00';
const BY_ID = `query($id: Int!, $password: String) {
  event(id: $id, password: $password) { id title description venue { id json_ld } organizer { id json_ld } json_ld } }`;
const BY_SLUG = `query($slug: String!, $password: String) {
  event_by_slug(slug: $slug, password: $password) { id title description json_ld } }`;

describeEachDb('single event reads', (env) => {
  beforeEach(() => resetCalendar(env));

  async function readError(
    variables: Record<string, unknown>,
    as?: Role,
    query = BY_ID,
  ): Promise<Record<string, any> | undefined> {
    const result = await env.gql(query, variables, as ? { as } : {});
    // Lookups are soft (issue 20): the event is null, with the error at its path.
    const field = query === BY_ID ? 'event' : 'event_by_slug';
    expect(result.data).toEqual({ [field]: null });
    expect(result.errors?.[0]?.path).toEqual([field]);
    return result.errors?.[0]?.extensions;
  }

  it('reads by id and by slug, with JSON-LD for the event, its venue and organizers', async () => {
    const venue = await insertVenue(env, { title: 'Main Hall', city: 'Springfield' });
    const org = await insertOrganizer(env, { title: 'Acme', email: 'org@example.com' });
    const id = await insertEvent(env, {
      title: 'Jazz Night',
      slug: 'jazz-night',
      start: ON,
      end: '2027-03-10 22:30:00',
      timezone: 'America/New_York',
      cost: '15',
      excerpt: '<p>Jazz!</p>',
      venue_id: venue,
      organizers: [org],
    });
    const { event } = await env.ok(BY_ID, { id });
    expect(event).toMatchObject({ id, title: 'Jazz Night' });
    expect(event.json_ld).toMatchObject({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Jazz Night',
      description: 'Jazz!',
      url: 'http://calendar.test/event/jazz-night/',
      startDate: '2027-03-10T19:00:00-05:00',
      endDate: '2027-03-10T22:30:00-05:00',
      location: { '@type': 'Place', name: 'Main Hall' },
      organizer: { '@type': 'Person', name: 'Acme', email: 'org@example.com' },
      offers: { '@type': 'Offer', price: '15', priceCurrency: 'USD' },
    });
    expect(event.venue.json_ld).toMatchObject({ '@type': 'Place' });
    expect(event.organizer[0].json_ld).toMatchObject({ '@type': 'Person' });
    const bySlug = await env.ok(BY_SLUG, { slug: 'jazz-night' });
    expect(bySlug.event_by_slug).toMatchObject({ id, json_ld: { '@type': 'Event' } });
  });

  it('shows no JSON-LD in lists', async () => {
    const venue = await insertVenue(env);
    await insertEvent(env, { title: 'x', start: '2026-12-01 10:00:00', venue_id: venue });
    const data = await env.ok('{ events { events { json_ld venue { json_ld } } } }');
    expect(data.events.events).toEqual([{ json_ld: null, venue: { json_ld: null } }]);
  });

  it('answers 404 for an unknown id or slug', async () => {
    expect(await readError({ id: 999999 })).toMatchObject({
      code: 'NOT_FOUND',
      rest_code: 'rest-event-not-found',
    });
    expect(await readError({ slug: 'no-such-event' }, undefined, BY_SLUG)).toMatchObject({
      code: 'NOT_FOUND',
      rest_code: 'rest-event-not-found',
    });
    // A venue's id is not an event's.
    expect((await readError({ id: await insertVenue(env) }))?.code).toBe('NOT_FOUND');
  });

  it('hides drafts from anonymous callers but not from contributors and above', async () => {
    const id = await insertEvent(env, {
      title: 'Secret',
      slug: 'secret',
      start: ON,
      status: 'draft',
    });
    expect(await readError({ id })).toMatchObject({
      code: 'FORBIDDEN',
      rest_code: 'event-not-accessible',
    });
    expect(await readError({ slug: 'secret' }, undefined, BY_SLUG)).toMatchObject({
      rest_code: 'event-not-accessible',
    });
    expect((await env.ok(BY_ID, { id }, { as: 'editor' })).event.title).toBe('Secret');
    expect((await env.ok(BY_ID, { id }, { as: 'contributor' })).event.title).toBe('Secret');
    expect(await readError({ id }, 'subscriber')).toMatchObject({
      rest_code: 'event-not-accessible',
    });
  });

  it('answers 403 event-no-longer-available for a trashed event, to everyone', async () => {
    const id = await insertEvent(env, { title: 'Gone', start: ON, status: 'trash' });
    for (const as of [undefined, 'administrator'] as const) {
      expect(await readError({ id }, as)).toMatchObject({
        code: 'FORBIDDEN',
        rest_code: 'event-no-longer-available',
      });
    }
  });

  it('asks for the password unless it matches or the caller may edit the event', async () => {
    const author = await env.userId('author');
    const contributor = await env.userId('contributor');
    const id = await insertEvent(env, {
      title: 'Private party',
      slug: 'party',
      start: ON,
      password: 'sesame',
      description: '<p>Details</p>',
      author_id: author,
    });
    const protectedError = { code: 'FORBIDDEN', rest_code: 'event-password-protected' };
    expect(await readError({ id })).toMatchObject(protectedError);
    expect(await readError({ id, password: 'wrong' })).toMatchObject(protectedError);
    expect(await readError({ slug: 'party' }, undefined, BY_SLUG)).toMatchObject(protectedError);
    const opened = (await env.ok(BY_ID, { id, password: 'sesame' })).event;
    // The right password shows the details; protected events carry no JSON-LD.
    expect(opened).toMatchObject({ description: '<p>Details</p>', json_ld: null });
    expect((await env.ok(BY_ID, { id }, { as: 'editor' })).event.title).toBe('Private party');
    expect((await env.ok(BY_ID, { id }, { as: 'author' })).event.title).toBe('Private party');
    // A contributor cannot edit a published event, even their own.
    const own = await insertEvent(env, {
      title: 'Mine',
      start: ON,
      password: 'x',
      author_id: contributor,
    });
    expect(await readError({ id: own }, 'contributor')).toMatchObject(protectedError);
  });
});
