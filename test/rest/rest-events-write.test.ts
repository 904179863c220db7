import { describeEachDb } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import {
  EVENT_KEYS,
  NESTED_TERM_KEYS,
  VENUE_KEYS,
  expectOrderedSubset,
} from '../support/rest/rest-shapes';
import { expectGraphqlAgrees, graphqlRead } from '../support/rest/rest-twin';

/**
 * POST /events; POST/PUT/PATCH and DELETE on /events/<id> and /events/by-slug/<slug>
 * (docs/contract.md §7). Every successful write is checked against a GraphQL read of the record.
 */

const DATES = { start_date: '2027-03-10 19:00:00', end_date: '2027-03-10 22:30:00' };

describeEachDb('REST event writes', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };

  async function createEvent(fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const response = await rest.post('/events', { title: 'An event', ...DATES, ...fields }, admin);
    expect(response.status).toBe(201);
    return response.body;
  }

  describe('POST /events', () => {
    it('creates an event with linked records: 201, the contract shape, GraphQL agrees', async () => {
      const venue = (await rest.post('/venues', { venue: 'Main Hall', city: 'Springfield' }, admin))
        .body;
      const organizer = (await rest.post('/organizers', { organizer: 'Acme Org' }, admin)).body;
      const response = await rest.post(
        '/events',
        {
          title: 'Jazz Night',
          description: '<p>An evening of jazz.</p>',
          excerpt: 'Jazz!',
          ...DATES,
          cost: '15',
          website: 'https://jazz.example.com',
          venue: venue.id,
          organizer: [organizer.id, { organizer: 'Inline Org', email: 'inline@example.com' }],
          categories: ['Concerts'],
          tags: 'jazz, live',
          featured: 'TRUE',
          show_map: 1,
          url: 'http://ignored.example/', // read-only output fields are ignored
        },
        admin,
      );
      expect(response.status).toBe(201);
      const event = response.body;
      expect(Object.keys(event)).toEqual(EVENT_KEYS);
      expect(event).toMatchObject({
        title: 'Jazz Night',
        author: String(await env.userId('administrator')),
        cost: '$15',
        image: false,
        featured: true,
        show_map: true,
        url: `http://calendar.test/event/${event.slug}/`,
      });
      expectOrderedSubset(event.venue, VENUE_KEYS);
      expect(event.venue).toMatchObject({ id: venue.id, venue: 'Main Hall', city: 'Springfield' });
      expect(event.venue).not.toHaveProperty('address'); // empty keys are left out
      expect(event.organizer.map((o: any) => o.organizer)).toEqual(['Acme Org', 'Inline Org']);
      expect(event.tags.map((t: any) => t.name)).toEqual(['jazz', 'live']);
      expect(Object.keys(event.categories[0])).toEqual(NESTED_TERM_KEYS);
      await expectGraphqlAgrees(env, 'event', event);
    });

    it('accepts a form body with bracket arrays and nested fields', async () => {
      const response = await rest.request('POST', '/events', {
        ...admin,
        form: [
          ['title', 'Form Fair'],
          ['start_date', '2027-05-01'],
          ['end_date', '2027-05-02'],
          ['all_day', 'true'],
          ['categories[]', 'Fairs'],
          ['categories[]', 'Markets'],
          ['venue[venue]', 'Inline Park'],
          ['venue[city]', 'Chicago'],
          ['organizer[0][organizer]', 'Form Org'],
        ],
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        all_day: true,
        start_date: '2027-05-01 00:00:00',
        end_date: '2027-05-02 23:59:59',
        venue: { venue: 'Inline Park', city: 'Chicago' },
        organizer: [{ organizer: 'Form Org' }],
      });
      expect(response.body.categories.map((c: any) => c.name)).toEqual(['Fairs', 'Markets']);
      await expectGraphqlAgrees(env, 'event', response.body);
    });

    it('answers 400 rest_missing_callback_param naming the missing fields', async () => {
      expectError(
        await rest.post('/events', { title: 'x' }, admin),
        400,
        'rest_missing_callback_param',
        ['start_date', 'end_date'],
      );
      expectError(await rest.post('/events', DATES, admin), 400, 'rest_missing_callback_param', [
        'title',
      ]);
    });

    it.each([
      [{ website: 'foo' }, 'website'],
      [{ all_day: 'maybe' }, 'all_day'],
      [{ status: 'kinda' }, 'status'],
      [{ author: 'abc' }, 'author'],
      [{ start_date: 'not a date' }, 'start_date'],
      [{ end_date: '2027-03-09 10:00:00' }, 'end_date'],
      [{ venue: 999999 }, 'venue'],
      [{ venue: { city: 5, venue: ['x'] } }, 'venue'],
      [{ title: '' }, 'title'],
    ])('answers 400 rest_invalid_param for %j', async (fields, name) => {
      const before = await env.snapshot();
      const response = await rest.post('/events', { title: 'Bad', ...DATES, ...fields }, admin);
      expectError(response, 400, 'rest_invalid_param');
      expect(Object.keys(response.body.data.params)).toContain(name);
      expect(await env.snapshot()).toBe(before);
    });

    it('answers 400 rest_invalid_json for a malformed JSON body', async () => {
      const response = await rest.request('POST', '/events', {
        ...admin,
        raw: { body: '{"title": "x",', type: 'application/json' },
      });
      expectError(response, 400, 'rest_invalid_json');
    });

    it('answers 413 rest_request_too_large above the body limit', async () => {
      const response = await rest.post(
        '/events',
        { title: 'Big', ...DATES, description: 'x'.repeat(env.config.maxBodyBytes) },
        admin,
      );
      expectError(response, 413, 'rest_request_too_large');
    });

    // Needs the auth layer: anonymous writes are refused with 401 (docs/contract.md §8, §9).
    it('answers 401 rest_forbidden to an anonymous write', async () => {
      const before = await env.snapshot();
      const response = await rest.post('/events', { title: 'x', ...DATES });
      expectError(response, 401, 'rest_forbidden');
      expect(await env.snapshot()).toBe(before);
    });
  });

  describe('updates by id and by slug', () => {
    it.each(['POST', 'PUT', 'PATCH'])(
      '%s /events/<id> changes only the fields sent: 200, GraphQL agrees',
      async (method) => {
        const made = await createEvent({ title: 'Before', excerpt: 'Kept', featured: true });
        const response = await rest.request(method, `/events/${made.id}`, {
          ...admin,
          json: { title: 'After', website: null },
        });
        expect(response.status).toBe(200);
        expect(Object.keys(response.body)).toEqual(EVENT_KEYS);
        expect(response.body).toMatchObject({
          id: made.id,
          title: 'After',
          excerpt: '<p>Kept</p>', // rendered on output (docs/contract.md §4)
          featured: true,
          website: made.url, // cleared: falls back to the public url
        });
        await expectGraphqlAgrees(env, 'event', response.body);
      },
    );

    it.each(['POST', 'PUT', 'PATCH'])(
      '%s /events/by-slug/<slug> finds the event by the path slug; a body slug renames it',
      async (method) => {
        const made = await createEvent({ title: `Slugged ${method}` });
        const venue = (await rest.post('/venues', { venue: `Hall ${method}` }, admin)).body;
        const response = await rest.request(method, `/events/by-slug/${made.slug}`, {
          ...admin,
          json: { slug: `renamed-${method.toLowerCase()}`, venue: venue.id },
        });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          id: made.id,
          slug: `renamed-${method.toLowerCase()}`,
          venue: { id: venue.id },
        });
        await expectGraphqlAgrees(env, 'event', response.body);
        const unlinked = await rest.patch(
          `/events/by-slug/renamed-${method.toLowerCase()}`,
          { venue: 0 },
          admin,
        );
        expect(unlinked.body.venue).toEqual([]);
      },
    );

    it('answers 404 rest-event-not-found for an unknown id or slug', async () => {
      expectError(
        await rest.put('/events/999999', { title: 'x' }, admin),
        404,
        'rest-event-not-found',
      );
      expectError(
        await rest.patch('/events/by-slug/no-such-event', { title: 'x' }, admin),
        404,
        'rest-event-not-found',
      );
    });

    it('answers 400 for bad values, naming them', async () => {
      const made = await createEvent();
      const coerced = await rest.put(
        `/events/${made.id}`,
        { sticky: 'perhaps', all_day: 'x' },
        admin,
      );
      expectError(coerced, 400, 'rest_invalid_param');
      expect(Object.keys(coerced.body.data.params).sort()).toEqual(['all_day', 'sticky']);
      const dated = await rest.put(`/events/${made.id}`, { start_date: 'garbage' }, admin);
      expectError(dated, 400, 'rest_invalid_param');
      expect(Object.keys(dated.body.data.params)).toEqual(['start_date']);
      const slugged = await rest.post(
        `/events/by-slug/${made.slug}`,
        { end_date: '2020-01-01' },
        admin,
      );
      expectError(slugged, 400, 'rest_invalid_param');
    });

    // Needs the auth layer.
    it('answers 401 rest_forbidden to anonymous updates', async () => {
      const made = await createEvent();
      expectError(await rest.patch(`/events/${made.id}`, { title: 'x' }), 401, 'rest_forbidden');
      expectError(
        await rest.put(`/events/by-slug/${made.slug}`, { title: 'x' }),
        401,
        'rest_forbidden',
      );
    });
  });

  describe('deletes by id and by slug', () => {
    it('DELETE /events/<id> trashes (200), then 410; force deletes for good', async () => {
      const made = await createEvent({ title: 'Doomed' });
      const response = await rest.delete(`/events/${made.id}`, admin);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(EVENT_KEYS);
      expect(response.body).toMatchObject({ id: made.id, status: 'trash' });
      expect(await graphqlRead(env, 'event', made.id)).toMatchObject({
        restCode: 'event-no-longer-available',
      });
      expectError(await rest.delete(`/events/${made.id}`, admin), 410, 'event-is-in-trash');
      const forced = await rest.delete(`/events/${made.id}?force=true`, admin);
      expect(forced.body).toMatchObject({ id: made.id, status: 'trash' });
      expect(await graphqlRead(env, 'event', made.id)).toMatchObject({
        restCode: 'rest-event-not-found',
      });
    });

    it('DELETE /events/by-slug/<slug> trashes the event', async () => {
      const made = await createEvent({ title: 'Doomed by slug' });
      const response = await rest.delete(`/events/by-slug/${made.slug}`, admin);
      expect(response.body).toMatchObject({ id: made.id, status: 'trash' });
      expect(await graphqlRead(env, 'event', made.id)).toMatchObject({
        restCode: 'event-no-longer-available',
      });
    });

    it('answers 404 for unknown ids and slugs, 400 for a bad force', async () => {
      expectError(await rest.delete('/events/999999', admin), 404, 'rest-event-not-found');
      expectError(await rest.delete('/events/by-slug/nope', admin), 404, 'rest-event-not-found');
      const made = await createEvent();
      const response = await rest.delete(`/events/${made.id}?force=perhaps`, admin);
      expectError(response, 400, 'rest_invalid_param', {
        force: expect.stringContaining('boolean'),
      });
    });

    // Needs the auth layer.
    it('answers 401 rest_forbidden to anonymous deletes', async () => {
      const made = await createEvent();
      expectError(await rest.delete(`/events/${made.id}`), 401, 'rest_forbidden');
      expectError(await rest.delete(`/events/by-slug/${made.slug}`), 401, 'rest_forbidden');
      expect((await graphqlRead(env, 'event', made.id)).record?.status).toBe('publish');
    });
  });
});
