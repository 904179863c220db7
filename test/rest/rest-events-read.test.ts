import { resetCalendar } from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { EVENT_KEYS, NESTED_TERM_KEYS, pathOf } from '../support/rest/rest-shapes';
import { graphqlRead } from '../support/rest/rest-twin';

/** GET /events, GET /events/<id>, GET /events/by-slug/<slug> (docs/contract.md §1–§6, §8). */

describeEachDb('REST event reads', (env) => {
  const rest = new RestClient(env);

  async function createEvent(fields: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await rest.post(
      '/events',
      { start_date: '2027-03-10 19:00:00', end_date: '2027-03-10 22:00:00', ...fields },
      { as: 'administrator' },
    );
    expect(response.status).toBe(201);
    return response.body;
  }

  describe('GET /events', () => {
    beforeEach(() => resetCalendar(env));

    it('answers the envelope with totals headers, and links that keep every filter', async () => {
      const venue = (await rest.post('/venues', { venue: 'Club' }, { as: 'administrator' })).body;
      const made = [];
      for (const day of ['10', '11', '12']) {
        made.push(
          await createEvent({
            title: `Gig ${day}`,
            start_date: `2027-03-${day} 19:00:00`,
            end_date: `2027-03-${day} 22:00:00`,
            categories: ['Concerts'],
            tags: ['live'],
            venue: venue.id,
            featured: true,
          }),
        );
      }
      await createEvent({ title: 'Gig elsewhere', categories: ['Talks'], featured: true });
      const query = `categories=concerts&tags=live&venue=${venue.id}&featured=1&search=gig&per_page=1`;

      const first = await rest.get(`/events?${query}`);
      expect(first.status).toBe(200);
      expect(Object.keys(first.body)).toEqual([
        'events',
        'rest_url',
        'next_rest_url',
        'total',
        'total_pages',
      ]);
      expect(first.body).toMatchObject({ total: 3, total_pages: 3 });
      expect(first.body.events.map((e: any) => e.id)).toEqual([made[0]!.id]);
      for (const header of ['X-TEC-Total', 'X-WP-Total'])
        expect(first.headers.get(header)).toBe('3');
      for (const header of ['X-TEC-TotalPages', 'X-WP-TotalPages']) {
        expect(first.headers.get(header)).toBe('3');
      }
      expect(first.body.rest_url).toMatch(/\/events\/\?page=1&per_page=1&/);
      const next = new URL(first.body.next_rest_url).searchParams;
      expect(Object.fromEntries(next)).toMatchObject({
        page: '2',
        per_page: '1',
        categories: 'concerts',
        tags: 'live',
        venue: String(venue.id),
        featured: 'true',
        search: 'gig',
      });

      const second = await rest.get(pathOf(first.body.next_rest_url));
      expect(second.status).toBe(200);
      expect(Object.keys(second.body)).toEqual([
        'events',
        'rest_url',
        'next_rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ]);
      expect(second.body.events.map((e: any) => e.id)).toEqual([made[1]!.id]);
      expect(second.headers.get('link')).toContain('rel="next"');
      const back = await rest.get(pathOf(second.body.previous_rest_url));
      expect(new URL(second.body.previous_rest_url).searchParams.has('page')).toBe(false);
      expect(back.body.events.map((e: any) => e.id)).toEqual([made[0]!.id]);

      const third = await rest.get(pathOf(second.body.next_rest_url));
      expect(third.body.events.map((e: any) => e.id)).toEqual([made[2]!.id]);
      expect(third.body).not.toHaveProperty('next_rest_url');

      // GraphQL twin: the same filters give the same events.
      const gql = await env.ok(
        `query($c: [String!], $v: [Int!]) { events(categories: $c, tags: ["live"], venue: $v,
          featured: true, search: "gig", per_page: 10) { total events { id } } }`,
        { c: ['concerts'], v: [venue.id] },
      );
      expect(gql.events.events.map((e: any) => e.id)).toEqual(made.map((e) => e.id));
    });

    it('lists events in the contract shape, terms nested in the raw shape', async () => {
      await createEvent({ title: 'Shaped', categories: ['Fairs'], tags: ['outdoor'] });
      const { body } = await rest.get('/events');
      expect(body.events).toHaveLength(1);
      const [event] = body.events;
      expect(Object.keys(event)).toEqual(EVENT_KEYS);
      expect(Object.keys(event.categories[0])).toEqual(NESTED_TERM_KEYS);
      expect(event.tags[0]).toMatchObject({ parent: 0, taxonomy: 'post_tag', filter: 'raw' });
      expect(event).toMatchObject({ image: false, venue: [], organizer: [] });
      expect(event).not.toHaveProperty('json_ld');
    });

    it('answers an empty list without links, and 404 past the last page', async () => {
      const empty = await rest.get('/events');
      expect(empty.body).toEqual({
        events: [],
        rest_url: expect.any(String),
        total: 0,
        total_pages: 0,
      });
      expect(empty.headers.get('x-tec-total')).toBe('0');
      expectError(await rest.get('/events?page=2'), 404, 'event-archive-page-not-found');
    });

    it('caps per_page at 50 and echoes the capped value', async () => {
      const { body } = await rest.get('/events?per_page=500');
      expect(body.rest_url).toContain('per_page=50');
    });

    it.each([
      ['per_page=abc', 'per_page'],
      ['page=0', 'page'],
      ['per_page=-1', 'per_page'],
      ['start_date=not-a-date', 'start_date'],
      ['featured=maybe', 'featured'],
      ['strict_dates=yes', 'strict_dates'],
      ['venue=foo', 'venue'],
      ['categories=no-such-category', 'categories'],
      ['status=foo', 'status'],
      ['status=draft', 'status'],
      ['search=', 'search'],
      ['ticketed=true', 'ticketed'],
    ])('answers 400 rest_invalid_param for %s', async (query, name) => {
      const response = await rest.get(`/events?${query}`);
      expectError(response, 400, 'rest_invalid_param');
      expect(Object.keys(response.body.data.params)).toContain(name);
    });

    it('costs the same number of SQL queries whatever the page size', async () => {
      for (const day of ['10', '11', '12', '13']) {
        await createEvent({
          title: `Costly ${day}`,
          start_date: `2027-04-${day} 19:00:00`,
          end_date: `2027-04-${day} 22:00:00`,
          venue: { venue: `Hall ${day}` },
          organizer: [{ organizer: `Org ${day}` }, { organizer: 'Shared Org' }],
          categories: [`Cat ${day}`],
          tags: ['shared'],
        });
      }
      // The writes made the kept total stale: the first list after them counts again.
      await rest.get('/events?per_page=2');
      const small = await env.countQueries(() => rest.get('/events?per_page=1'));
      const large = await env.countQueries(() => rest.get('/events?per_page=4'));
      expect(large).toBe(small);
    });

    it('answers HEAD like GET, without a body', async () => {
      await createEvent({ title: 'Headed' });
      const response = await rest.head('/events');
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
      expect(response.headers.get('x-tec-total')).toBe('1');
    });
  });

  describe('GET /events/<id> and /events/by-slug/<slug>', () => {
    it('answers the event with json_ld, its venue and organizers with theirs', async () => {
      const made = await createEvent({
        title: 'Jazz Night',
        venue: { venue: 'Main Hall', city: 'Springfield' },
        organizer: [{ organizer: 'Acme Org', email: 'org@example.com' }],
        cost: '15',
      });
      for (const path of [`/events/${made.id}`, `/events/by-slug/${made.slug}`]) {
        const { status, body } = await rest.get(path);
        expect(status).toBe(200);
        expect(Object.keys(body)).toEqual([...EVENT_KEYS, 'json_ld']);
        expect(body.json_ld).toMatchObject({ '@type': 'Event', name: 'Jazz Night' });
        expect(body.venue.json_ld).toMatchObject({ '@type': 'Place' });
        expect(body.organizer[0].json_ld).toMatchObject({ '@type': 'Person' });
        const { record } = await graphqlRead(env, 'event', made.id, 'anonymous');
        expect(body).toMatchObject({ id: record!.id, title: record!.title, cost: '$15' });
      }
    });

    it('answers 404 rest-event-not-found for an unknown id or slug', async () => {
      expectError(await rest.get('/events/999999'), 404, 'rest-event-not-found');
      expectError(await rest.get('/events/99999999999'), 404, 'rest-event-not-found');
      expectError(await rest.get('/events/by-slug/no-such-event'), 404, 'rest-event-not-found');
      expectError(await rest.get('/events/by-slug/'), 404, 'rest_no_route');
      expectError(await rest.get('/events/abc'), 404, 'rest_no_route');
    });

    it('answers 403 to anonymous readers of a draft, 200 to an administrator', async () => {
      const draft = await createEvent({ title: 'Secret', status: 'draft' });
      expectError(await rest.get(`/events/${draft.id}`), 403, 'event-not-accessible');
      const seen = await rest.get(`/events/by-slug/${draft.slug}`, { as: 'administrator' });
      expect(seen.body).toMatchObject({ id: draft.id, status: 'draft' });
    });

    it('answers 400 for a password that is not a string, 403 without the right one', async () => {
      const locked = await createEvent({ title: 'Locked', password: 'sesame' });
      const bad = await rest.get(`/events/${locked.id}?password[]=x`);
      expectError(bad, 400, 'rest_invalid_param');
      expect(Object.keys(bad.body.data.params)).toEqual(['password']);
      expectError(await rest.get(`/events/${locked.id}`), 403, 'event-password-protected');
      const open = await rest.get(`/events/by-slug/${locked.slug}?password=sesame`);
      expect(open.status).toBe(200);
    });
  });
});
