import { describeEachDb } from '../support/harness';
import { useImageServer } from '../support/image-server';
import { firstError, insertEvent } from '../support/linked-fixtures';

const LIST = `query($page: Int, $per_page: Int, $search: String, $event: Int, $has_events: Boolean,
  $only_with_upcoming: Boolean, $status: [PostStatus!]) {
  venues(page: $page, per_page: $per_page, search: $search, event: $event, has_events: $has_events,
    only_with_upcoming: $only_with_upcoming, status: $status) {
    venues { id venue json_ld } rest_url next_rest_url previous_rest_url total total_pages } }`;
const ROOT = 'http://calendar.test/wp-json/calendar/events/v1/venues/';

describeEachDb('venue lists', (env) => {
  const images = useImageServer();
  const ids: Record<string, number> = {};
  const events: Record<string, number> = {};

  beforeAll(async () => {
    const venues: [string, Record<string, unknown>][] = [
      ['Golf Ground', { phone: '555 0199' }],
      ['beta Bar', { city: 'London', zip: '223345', image: images.url('/b.png') }],
      ['Alpha Arena', { city: 'London', address: '10 Temple Avenue', image: images.url('/a.png') }],
      ['Charlie Court', { description: '<p>France, Ile de</p>', zip: '223345-9' }],
      ['Delta Dome', { city: 'Temple', address: 'Avenue Road' }],
      ['Echo Draft', { status: 'draft' }],
      ['Foxtrot Trashed', {}],
    ];
    for (const [venue, fields] of venues) {
      const input = { venue, ...fields };
      const data = await env.ok(
        `mutation($input: VenueInput!) { create_venue(input: $input) { id } }`,
        {
          input,
        },
        { as: 'administrator' },
      );
      ids[venue] = data.create_venue.id;
    }
    await env.ok(
      `mutation($id: Int!) { delete_venue(id: $id) { id } }`,
      {
        id: ids['Foxtrot Trashed'],
      },
      { as: 'administrator' },
    );
    // Now is 2026-11-21 08:00:00 UTC: an event starting exactly now is upcoming.
    events.alpha = await insertEvent(env, {
      venueId: ids['Alpha Arena'],
      start: '2026-11-21 08:00:00',
    });
    events.betaDraft = await insertEvent(env, { venueId: ids['beta Bar'], status: 'draft' });
    events.charliePast = await insertEvent(env, {
      venueId: ids['Charlie Court'],
      start: '2026-11-21 07:59:59',
    });
    events.deltaPending = await insertEvent(env, {
      venueId: ids['Delta Dome'],
      status: 'pending',
      start: '2026-01-01 10:00:00',
    });
    events.golfTrash = await insertEvent(env, { venueId: ids['Golf Ground'], status: 'trash' });
    events.echo = await insertEvent(env, { venueId: ids['Echo Draft'] });
    events.foxtrot = await insertEvent(env, { venueId: ids['Foxtrot Trashed'] });
  });

  const list = async (variables: Record<string, unknown> = {}, as?: 'editor') =>
    (await env.ok(LIST, variables, { as })).venues;
  const names = async (variables: Record<string, unknown> = {}, as?: 'editor') =>
    (await list(variables, as)).venues.map((v: { venue: string }) => v.venue);

  it('lists published venues by name for anonymous callers, never trashed ones', async () => {
    const page = await list();
    expect(page).toEqual({
      venues: ['Alpha Arena', 'beta Bar', 'Charlie Court', 'Delta Dome', 'Golf Ground'].map(
        (venue) => ({ id: ids[venue], venue, json_ld: null }),
      ),
      rest_url: `${ROOT}?page=1&per_page=10&status=publish`,
      next_rest_url: null,
      previous_rest_url: null,
      total: 5,
      total_pages: 1,
    });
  });

  it('shows drafts to editors and filters by status', async () => {
    const page = await list({}, 'editor');
    expect(page.venues.map((v: { venue: string }) => v.venue)).toEqual([
      'Alpha Arena',
      'beta Bar',
      'Charlie Court',
      'Delta Dome',
      'Echo Draft',
      'Golf Ground',
    ]);
    expect(page.rest_url).toBe(`${ROOT}?page=1&per_page=10`);
    const drafts = await list({ status: ['draft'] }, 'editor');
    expect(drafts.venues.map((v: { venue: string }) => v.venue)).toEqual(['Echo Draft']);
    expect(drafts.rest_url).toBe(`${ROOT}?page=1&per_page=10&status=draft`);
    expect(await names({ status: ['publish'] })).toHaveLength(5);

    for (const [status, as] of [
      [['draft'], undefined],
      [['trash'], 'editor'],
    ] as const) {
      const error = firstError(await env.gql(LIST, { status }, { as }));
      expect(error).toMatchObject({
        rest_code: 'rest_invalid_param',
        params: { status: expect.any(String) },
      });
    }
  });

  it('pages, links the neighbours and answers 404 past the last page', async () => {
    const page = await list({ page: 2, per_page: 2 });
    expect(page.venues.map((v: { venue: string }) => v.venue)).toEqual([
      'Charlie Court',
      'Delta Dome',
    ]);
    expect(page).toMatchObject({
      rest_url: `${ROOT}?page=2&per_page=2&status=publish`,
      next_rest_url: `${ROOT}?page=3&per_page=2&status=publish`,
      previous_rest_url: `${ROOT}?per_page=2&status=publish`,
      total: 5,
      total_pages: 3,
    });
    const past = await env.gql(LIST, { page: 4, per_page: 2 });
    expect(firstError(past)).toMatchObject({
      code: 'NOT_FOUND',
      rest_code: 'venue-archive-page-not-found',
    });
    for (const variables of [{ page: 0 }, { per_page: 0 }, { page: -1 }]) {
      const error = firstError(await env.gql(LIST, variables));
      expect(error).toMatchObject({ rest_code: 'rest_invalid_param' });
    }
    expect((await list({ per_page: 500 })).rest_url).toContain('per_page=50&');
  });

  it('searches: some single field holds every word, case-insensitively', async () => {
    expect(await names({ search: 'london' })).toEqual(['Alpha Arena', 'beta Bar']);
    // "temple" and "avenue" are both in Delta's fields, but not in one of them.
    expect(await names({ search: 'AVENUE temple' })).toEqual(['Alpha Arena']);
    expect(await names({ search: 'france, ile' })).toEqual(['Charlie Court']);
    expect(await names({ search: '223345' })).toEqual(['beta Bar', 'Charlie Court']);
    expect(await names({ search: '0199' })).toEqual(['Golf Ground']);
    expect(await names({ search: 'trashed' }, 'editor')).toEqual([]);
    // LIKE wildcards are plain characters.
    expect(await names({ search: '%' })).toEqual([]);
    expect(await names({ search: '_' })).toEqual([]);
    const page = await list({ search: 'london', per_page: 1 });
    expect(page).toMatchObject({
      total: 2,
      total_pages: 2,
      rest_url: `${ROOT}?page=1&per_page=1&search=london&status=publish`,
    });
    for (const search of ['', '   ']) {
      const error = firstError(await env.gql(LIST, { search }));
      expect(error).toMatchObject({
        rest_code: 'rest_invalid_param',
        params: { search: expect.any(String) },
      });
    }
  });

  it('filters by linked event, which must exist', async () => {
    expect(await names({ event: events.alpha })).toEqual(['Alpha Arena']);
    // A draft event is no anonymous caller's to name (issue 16): it answers as an unknown id.
    expect(firstError(await env.gql(LIST, { event: events.betaDraft }))).toMatchObject({
      rest_code: 'rest_invalid_param',
      params: { event: `${events.betaDraft} is not the id of an existing event` },
    });
    expect(await names({ event: events.betaDraft }, 'editor')).toEqual(['beta Bar']);
    expect(await names({ event: events.echo })).toEqual([]);
    expect(await names({ event: events.echo }, 'editor')).toEqual(['Echo Draft']);
    const error = firstError(await env.gql(LIST, { event: 987654 }));
    expect(error).toMatchObject({
      rest_code: 'rest_invalid_param',
      params: { event: expect.any(String) },
    });
  });

  it('has_events counts events that are not draft, pending or trashed', async () => {
    expect(await names({ has_events: true })).toEqual(['Alpha Arena', 'Charlie Court']);
    expect(await names({ has_events: true }, 'editor')).toEqual([
      'Alpha Arena',
      'Charlie Court',
      'Echo Draft',
    ]);
    expect(await names({ has_events: false })).toEqual(['beta Bar', 'Delta Dome', 'Golf Ground']);
    expect((await list({ has_events: false })).rest_url).toBe(
      `${ROOT}?page=1&per_page=10&has_events=false&status=publish`,
    );
  });

  it('only_with_upcoming keeps venues with an event from now on that the caller may see', async () => {
    expect(await names({ only_with_upcoming: true })).toEqual(['Alpha Arena']);
    expect(await names({ only_with_upcoming: true }, 'editor')).toEqual([
      'Alpha Arena',
      'beta Bar',
      'Echo Draft',
    ]);
    expect(await names({ only_with_upcoming: false })).toHaveLength(5);
  });

  it('combines filters; totals and the echoed query reflect all of them', async () => {
    const page = await list({ search: 'london', has_events: true, only_with_upcoming: true });
    expect(page).toMatchObject({
      venues: [{ venue: 'Alpha Arena' }],
      total: 1,
      rest_url:
        `${ROOT}?page=1&per_page=10&search=london&has_events=true` +
        '&only_with_upcoming=true&status=publish',
    });
  });

  it('costs the same number of queries whatever per_page is', async () => {
    const query = `query($per_page: Int) { venues(per_page: $per_page) {
      venues { id image { url } stateprovince } total } }`;
    const small = await env.countQueries(() => env.ok(query, { per_page: 1 }));
    const large = await env.countQueries(() => env.ok(query, { per_page: 5 }));
    expect(large).toBe(small);
  });
});
