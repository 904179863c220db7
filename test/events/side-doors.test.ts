import {
  insertEvent,
  insertOrganizer,
  insertTerm,
  insertVenue,
  resetCalendar,
} from '../support/event-fixtures';
import { describeEachDb, type Caller, type TestEnv } from '../support/harness';
import { RestClient, type RestResponse } from '../support/rest/rest-client';

/**
 * Side doors (issue 16): a search, a relation filter or a nested total must not reveal what the
 * caller cannot read. Anonymous callers and subscribers get exactly the answer a record that
 * does not exist would give; administrators still see everything.
 */

/** An id no record has: the answer for it is the answer for a hidden record. */
const UNKNOWN = 987654;
const HIDDEN_FROM: Caller[] = ['anonymous', 'subscriber'];

interface Seeded {
  draftEvent: number;
  draftVenue: number;
  draftOrganizer: number;
  venue: number;
  organizer: number;
  category: number;
  tag: number;
}

async function seed(env: TestEnv): Promise<Seeded> {
  await resetCalendar(env);
  const category = await insertTerm(env, 'category', 'Concerts');
  const tag = await insertTerm(env, 'tag', 'Jazz');
  const venue = await insertVenue(env, { title: 'Open Hall' });
  const organizer = await insertOrganizer(env, { title: 'Open Crew' });
  const draftVenue = await insertVenue(env, {
    title: 'Secret Hall',
    status: 'draft',
    geo_lat: 48.8566,
    geo_lng: 2.3522,
  });
  const draftOrganizer = await insertOrganizer(env, { title: 'Secret Crew', status: 'draft' });
  const links = { categories: [category], tags: [tag], venue_id: venue, organizers: [organizer] };
  const draftEvent = await insertEvent(env, {
    title: 'Draft gig',
    status: 'draft',
    start: '2026-12-01 10:00:00',
    ...links,
  });
  // Published, at the hidden venue with the hidden organizer, a child of the draft.
  await insertEvent(env, {
    title: 'Public gig',
    start: '2026-12-02 10:00:00',
    venue_id: draftVenue,
    organizers: [draftOrganizer],
    parent_id: draftEvent,
  });
  await insertEvent(env, {
    title: 'Locked concert',
    start: '2026-12-03 10:00:00',
    password: 'sesame',
    description: '<p>zebra</p>',
    excerpt: '<p>okapi</p>',
  });
  // The contributor's own protected draft: its text is theirs to search.
  await insertEvent(env, {
    title: 'Pending jam',
    status: 'pending',
    start: '2026-12-04 10:00:00',
    password: 'sesame',
    description: '<p>quokka</p>',
    author_id: await env.userId('contributor'),
  });
  // Every kind of event under the open category, tag, venue and organizer: only the published,
  // listed one is everyone's; administrators also see the draft, private and future ones.
  for (const [title, fx] of [
    ['Open gig', {}],
    ['Private gig', { status: 'private' }],
    ['Future gig', { status: 'future' }],
    ['Trashed gig', { status: 'trash' }],
    ['Unlisted gig', { hide_from_listings: true }],
  ] as const) {
    await insertEvent(env, { title, start: '2026-12-05 10:00:00', ...links, ...fx });
  }
  return { draftEvent, draftVenue, draftOrganizer, venue, organizer, category, tag };
}

describeEachDb('side doors: search, relation filters, nested totals', (env) => {
  const rest = new RestClient(env);
  let s: Seeded;
  beforeAll(async () => {
    s = await seed(env);
  });

  const search = async (words: string, as: Caller): Promise<string[]> => {
    const data = await env.ok(
      `query($s: String) { events(search: $s) { total events { title } } }`,
      { s: words },
      { as },
    );
    const titles = data.events.events.map((e: { title: string }) => e.title);
    expect(data.events.total).toBe(titles.length);
    return titles;
  };

  const restSearch = async (words: string, as: Caller): Promise<string[]> => {
    const res = await rest.get(`/events?search=${encodeURIComponent(words)}`, { as });
    expect(res.status).toBe(200);
    const titles = res.body.events.map((e: { title: string }) => e.title);
    expect(res.body.total).toBe(titles.length);
    expect(res.headers.get('x-wp-total')).toBe(String(titles.length));
    return titles;
  };

  describe('search', () => {
    it.each(HIDDEN_FROM)(
      'never matches protected text for %s callers, only the title',
      async (as) => {
        for (const find of [search, restSearch]) {
          expect(await find('zebra', as)).toEqual([]);
          expect(await find('okapi', as)).toEqual([]);
          expect(await find('locked zebra', as)).toEqual([]);
          expect(await find('locked', as)).toEqual(['Locked concert']);
        }
      },
    );

    it('matches protected text for callers who may edit the event', async () => {
      for (const find of [search, restSearch]) {
        expect(await find('zebra', 'administrator')).toEqual(['Locked concert']);
        expect(await find('locked okapi', 'editor')).toEqual(['Locked concert']);
        // The author of a protected draft reads its text; another contributor only its title.
        expect(await find('quokka', 'contributor')).toEqual(['Pending jam']);
      }
      const other = await env.createUser('contributor', 'contributor-2');
      const res = await rest.get('/events?search=quokka', {
        authorization: `Bearer ${other.token}`,
      });
      expect(res.body.total).toBe(0);
      const byTitle = await rest.get('/events?search=jam', {
        authorization: `Bearer ${other.token}`,
      });
      expect(byTitle.body.events.map((e: { title: string }) => e.title)).toEqual(['Pending jam']);
    });
  });

  describe('relation filters', () => {
    /** The hidden id's answer is the unknown id's, the id aside. */
    const expectAsUnknown = (hidden: RestResponse, unknown: RestResponse, id: number) => {
      expect(hidden.status).toBe(400);
      expect(hidden.body).toEqual(JSON.parse(unknown.text.replaceAll(String(UNKNOWN), String(id))));
    };

    const routes = (): [string, number][] => [
      ['/venues?event=', s.draftEvent],
      ['/organizers?event=', s.draftEvent],
      ['/categories?event=', s.draftEvent],
      ['/categories?post=', s.draftEvent],
      ['/tags?event=', s.draftEvent],
      ['/tags?post=', s.draftEvent],
      ['/events?venue=', s.draftVenue],
      ['/events?organizer=', s.draftOrganizer],
      ['/events?post_parent=', s.draftEvent],
    ];

    it.each(HIDDEN_FROM)('answers a hidden record as an unknown id to %s callers', async (as) => {
      for (const [route, id] of routes()) {
        const unknown = await rest.get(`${route}${UNKNOWN}`, { as });
        expect(unknown.body.code).toBe('rest_invalid_param');
        expectAsUnknown(await rest.get(`${route}${id}`, { as }), unknown, id);
      }
    });

    it('answers GraphQL the same way', async () => {
      const queries: [string, number][] = [
        ['{ venues(event: ID) { total } }', s.draftEvent],
        ['{ organizers(event: ID) { total } }', s.draftEvent],
        ['{ categories(event: ID) { total } }', s.draftEvent],
        ['{ tags(post: ID) { total } }', s.draftEvent],
        ['{ events(venue: [ID]) { total } }', s.draftVenue],
        ['{ events(organizer: [ID]) { total } }', s.draftOrganizer],
      ];
      for (const as of HIDDEN_FROM) {
        for (const [query, id] of queries) {
          const unknown = await env.gql(query.replace('ID', String(UNKNOWN)), {}, { as });
          expect(unknown.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
          const hidden = await env.gql(query.replace('ID', String(id)), {}, { as });
          expect(hidden).toEqual(
            JSON.parse(JSON.stringify(unknown).replaceAll(String(UNKNOWN), String(id))),
          );
        }
      }
    });

    it('still lists the links of hidden records for administrators', async () => {
      const as = 'administrator';
      const names = (res: RestResponse, key: string, name: string) =>
        res.body[key].map((r: Record<string, unknown>) => r[name]);
      const venues = await rest.get(`/venues?event=${s.draftEvent}`, { as });
      expect(names(venues, 'venues', 'venue')).toEqual(['Open Hall']);
      const organizers = await rest.get(`/organizers?event=${s.draftEvent}`, { as });
      expect(names(organizers, 'organizers', 'organizer')).toEqual(['Open Crew']);
      const categories = await rest.get(`/categories?post=${s.draftEvent}`, { as });
      expect(names(categories, 'categories', 'name')).toEqual(['Concerts']);
      const tags = await rest.get(`/tags?event=${s.draftEvent}`, { as });
      expect(names(tags, 'tags', 'name')).toEqual(['Jazz']);
      for (const query of [
        `venue=${s.draftVenue}`,
        `organizer=${s.draftOrganizer}`,
        `post_parent=${s.draftEvent}`,
      ]) {
        const events = await rest.get(`/events?${query}`, { as });
        expect(names(events, 'events', 'title')).toEqual(['Public gig']);
      }
    });

    it('selects no event by the place of a hidden venue', async () => {
      const near = 'geoloc_lat=48.85&geoloc_lng=2.35&geoloc_radius=5';
      for (const as of HIDDEN_FROM) {
        for (const query of [near, 'geoloc=true']) {
          const res = await rest.get(`/events?${query}`, { as });
          expect({ query, total: res.body.total }).toEqual({ query, total: 0 });
        }
      }
      for (const query of [near, 'geoloc=true']) {
        const res = await rest.get(`/events?${query}`, { as: 'administrator' });
        expect(res.body.events.map((e: { title: string }) => e.title)).toEqual(['Public gig']);
      }
    });
  });

  describe('nested lists and their totals', () => {
    const NESTED = `query($venue: Int!, $organizer: Int!) {
      categories(hide_empty: false) { categories { name events { total events { title } } } }
      tags(hide_empty: false) { tags { name events { total events { title } } } }
      venue(id: $venue) { events { total events { title } } }
      organizer(id: $organizer) { events { total events { title } } }
    }`;

    const nested = async (as: Caller): Promise<string[][]> => {
      const data = await env.ok(NESTED, { venue: s.venue, organizer: s.organizer }, { as });
      const lists = [
        data.categories.categories[0].events,
        data.tags.tags[0].events,
        data.venue.events,
        data.organizer.events,
      ];
      return lists.map((list: { total: number; events: { title: string }[] }) => {
        // The total counts exactly what the list shows.
        expect(list.total).toBe(list.events.length);
        return list.events.map((e) => e.title);
      });
    };

    it.each(HIDDEN_FROM)('count only published, listed events for %s callers', async (as) => {
      expect(await nested(as)).toEqual(Array(4).fill(['Open gig']));
    });

    it('count every listed event but trashed ones for administrators', async () => {
      const all = ['Draft gig', 'Future gig', 'Open gig', 'Private gig'];
      const lists = await nested('administrator');
      expect(lists.map((titles) => [...titles].sort())).toEqual(Array(4).fill(all));
    });
  });
});
