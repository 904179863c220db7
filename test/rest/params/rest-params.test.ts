import { resetCalendar } from '../../support/event-fixtures';
import { describeEachDb } from '../../support/harness';
import { RestClient, expectError } from '../../support/rest/rest-client';
import { expectGraphqlAgrees } from '../../support/rest/rest-twin';

/**
 * Parameter sources and syntaxes (docs/contract.md §3): JSON > form > query, arrays as CSV,
 * brackets, JSON arrays and repeated keys, booleans and integers, nulls, unknown parameters; and no
 * client input ever answers 500.
 */

describeEachDb('REST parameters', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };
  const DATES = { start_date: '2027-02-01 10:00:00', end_date: '2027-02-01 12:00:00' };
  let ids: Record<string, number> = {};

  beforeAll(async () => {
    await resetCalendar(env);
    const make = async (title: string, categories: string[], featured: boolean) =>
      (await rest.post('/events', { title, ...DATES, categories, featured }, admin)).body
        .id as number;
    ids = {
      rock: await make('Rock night', ['Rock'], true),
      folk: await make('Folk night', ['Folk'], false),
      both: await make('Crossover night', ['Rock', 'Folk'], true),
      none: await make('Quiet night', [], false),
    };
  });

  const listed = async (query: string) => {
    // Only this file's fixtures: other tests create events without "night" in their titles.
    const response = await rest.get(`/events?${query}&search=night`);
    expect(response.status).toBe(200);
    return (response.body.events as { id: number }[]).map((e) => e.id);
  };

  it.each([
    ['CSV', 'categories=rock,folk'],
    ['CSV with spaces', 'categories=rock%20,%20folk'],
    ['brackets', 'categories[]=rock&categories[]=folk'],
    ['indexed brackets', 'categories[0]=rock&categories[1]=folk'],
    ['repeated plain keys [ours]', 'categories=rock&categories=folk'],
  ])('reads arrays sent as %s', async (_label, query) => {
    expect(await listed(query)).toEqual([ids.rock, ids.folk, ids.both]);
  });

  it('reads a JSON array from a JSON body, even on GET-like filters of writes', async () => {
    const response = await rest.post(
      '/events',
      { title: 'Json arrays', ...DATES, categories: ['Rock', 'Folk'], tags: [] },
      admin,
    );
    expect(response.body.categories.map((c: any) => c.name)).toEqual(['Rock', 'Folk']);
    await expectGraphqlAgrees(env, 'event', response.body);
  });

  it('reads a multipart form body', async () => {
    const form = new FormData();
    form.append('venue', 'Multipart Hall');
    form.append('city', 'Lyon');
    const response = await env.app.yoga.fetch(rest.url('/venues'), {
      method: 'POST',
      headers: await env.authHeaders('administrator'),
      body: form,
    });
    expect(response.status).toBe(201);
    const venue = await response.json();
    expect(venue).toMatchObject({ venue: 'Multipart Hall', city: 'Lyon' });
    await expectGraphqlAgrees(env, 'venue', venue);
  });

  it.each([
    ['featured=TRUE', true],
    ['featured=1', true],
    ['featured=False', false],
    ['featured=0', false],
  ])('reads booleans case-insensitively: %s', async (query, featured) => {
    const got = await listed(query);
    expect(got).toEqual(featured ? [ids.rock, ids.both] : [ids.folk, ids.none]);
  });

  it('reads integers from decimal strings, refuses decimals and words', async () => {
    expect(await listed('per_page=%202&page=1')).toHaveLength(2);
    for (const bad of ['per_page=2.5', 'per_page=two', 'page=1e3', 'include=1,x']) {
      expectError(await rest.get(`/events?${bad}`), 400, 'rest_invalid_param');
    }
  });

  it('ignores unknown parameters', async () => {
    expect(await listed('colour=blue&include=' + ids.rock)).toEqual([ids.rock]);
  });

  it('gives the JSON body priority over the form body and the query string', async () => {
    const json = await rest.post('/events?title=FromQuery', { title: 'FromJson', ...DATES }, admin);
    expect(json.body.title).toBe('FromJson');
    const form = await rest.request('POST', '/events?title=FromQuery&excerpt=QueryExcerpt', {
      ...admin,
      form: [
        ['title', 'FromForm'],
        ['start_date', DATES.start_date],
        ['end_date', DATES.end_date],
      ],
    });
    expect(form.body).toMatchObject({ title: 'FromForm', excerpt: '<p>QueryExcerpt</p>' });
    const put = await rest.request('PUT', `/events/${form.body.id}`, {
      ...admin,
      form: 'title=FormPut&featured=true',
    });
    expect(put.body).toMatchObject({ title: 'FormPut', featured: true });
    await expectGraphqlAgrees(env, 'event', put.body);
  });

  it('keeps explicit nulls: null clears an optional field', async () => {
    const made = (
      await rest.post(
        '/events',
        { title: 'Nullable', ...DATES, excerpt: 'Some', categories: ['Rock'] },
        admin,
      )
    ).body;
    const cleared = await rest.patch(
      `/events/${made.id}`,
      { excerpt: null, categories: null },
      admin,
    );
    expect(cleared.body).toMatchObject({ excerpt: '', categories: [] });
    await expectGraphqlAgrees(env, 'event', cleared.body);
  });

  it('takes the record from the path even when the body names another', async () => {
    const response = await rest.put(
      `/events/${ids.none}`,
      { id: ids.rock, title: 'Renamed quiet' },
      admin,
    );
    expect(response.body).toMatchObject({ id: ids.none, title: 'Renamed quiet' });
    await expectGraphqlAgrees(env, 'event', response.body);
  });

  it('never answers 500 to client input', async () => {
    const requests: [string, string, Record<string, unknown>][] = [
      ['GET', '/events?categories[x][y]=1', {}],
      ['GET', '/events?page[]=1', {}],
      ['GET', '/events?per_page[a]=1', {}],
      ['GET', '/events?start_date[]=2027-01-01', {}],
      ['GET', '/events?venue=99999999999', {}],
      ['GET', '/events?geoloc_lat=abc&geoloc_lng=1', {}],
      ['GET', '/events?status[]=publish&status[]=bogus', {}],
      ['GET', '/events/by-slug/%E0%A4%A', {}],
      ['GET', '/events/00000000000000000000001', {}],
      ['GET', '/venues?search[]=a', {}],
      ['GET', '/categories?include[]=x', {}],
      ['GET', '/tags?orderby[]=name', {}],
      ['POST', '/events', { raw: { body: '[]', type: 'application/json' } }],
      ['POST', '/events', { raw: { body: '"text"', type: 'application/json' } }],
      ['POST', '/events', { raw: { body: 'null', type: 'application/json' } }],
      ['POST', '/events', { raw: { body: '{"title":', type: 'application/json; charset=utf-8' } }],
      ['POST', '/events', { json: { title: { nested: true }, ...DATES } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, venue: { id: 'abc' } } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, venue: [1, 2] } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, organizer: [[1]] } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, organizer: true } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, cost: { a: 1 } } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, categories: [{}] } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, author: 1e20 } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, image: 'ftp://x/y.png' } }],
      ['POST', '/events', { json: { title: 'x', ...DATES, timezone: 'Mars/Base' } }],
      ['POST', '/events', { form: 'title[a]=x&start_date=2027-01-01&end_date=2027-01-02' }],
      ['POST', '/venues', { json: { venue: 'x', geo_lat: 1000 } }],
      ['POST', '/organizers', { json: { organizer: 'x', image: '12345678' } }],
      ['POST', '/categories', { json: { name: 'x', parent: -1 } }],
      ['PUT', `/events/${ids.rock}`, { json: { post_parent: ids.rock } }],
      ['DELETE', '/tags/1?force=1', {}],
    ];
    for (const [method, path, options] of requests) {
      const response = await rest.request(method, path, { ...admin, ...options });
      expect({
        method,
        path,
        status: response.status < 500,
        body: response.body?.code !== undefined || response.status < 300,
      }).toEqual({
        method,
        path,
        status: true,
        body: true,
      });
    }
  });
});
