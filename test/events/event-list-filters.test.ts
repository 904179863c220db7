import { describeEachDb } from '../support/harness';
import {
  insertEvent,
  insertOrganizer,
  insertTerm,
  insertVenue,
  listError,
  listEvents,
  resetCalendar,
  titles,
} from '../support/event-fixtures';

const ON = '2026-12-01 10:00:00';

function invalidParam(error: { extensions?: Record<string, any> }, param: string): void {
  expect(error.extensions).toMatchObject({
    code: 'BAD_USER_INPUT',
    rest_code: 'rest_invalid_param',
  });
  expect(Object.keys(error.extensions?.params ?? {})).toContain(param);
}

describeEachDb('events list: filters', (env) => {
  beforeEach(() => resetCalendar(env));

  it('search: every word, case-insensitive, in title, description or excerpt', async () => {
    await insertEvent(env, { title: 'Jazz Night', description: '<p>An evening</p>', start: ON });
    await insertEvent(env, { title: 'Blues', excerpt: '<p>Jazzy blues</p>', start: ON });
    await insertEvent(env, { title: 'Rock', description: '<p>Loud NIGHT</p>', start: ON });
    expect(await titles(env, { search: 'JAZZ' })).toEqual(['Jazz Night', 'Blues']);
    expect(await titles(env, { search: 'jazz  night' })).toEqual(['Jazz Night']);
    expect(await titles(env, { search: 'night' })).toEqual(['Jazz Night', 'Rock']);
    const list = await listEvents(env, { search: 'night' });
    expect(list.total).toBe(2);
    expect(list.rest_url).toContain('&search=night&status=publish');
  });

  it('search: % and _ are literal characters', async () => {
    await insertEvent(env, { title: '100% fun', start: ON });
    await insertEvent(env, { title: '1000 fun', start: ON });
    await insertEvent(env, { title: 'a_b', start: ON });
    await insertEvent(env, { title: 'axb', start: ON });
    expect(await titles(env, { search: '100%' })).toEqual(['100% fun']);
    expect(await titles(env, { search: 'a_b' })).toEqual(['a_b']);
  });

  it('search: empty is a bad request', async () => {
    invalidParam(await listError(env, { search: '' }), 'search');
    invalidParam(await listError(env, { search: '   ' }), 'search');
  });

  it('categories and tags: ids or slugs, OR within a list, AND between lists', async () => {
    const a = await insertTerm(env, 'category', 'Alpha');
    const b = await insertTerm(env, 'category', 'Beta');
    const t1 = await insertTerm(env, 'tag', 'One');
    const t2 = await insertTerm(env, 'tag', 'Two');
    await insertEvent(env, { title: 'e1', start: ON, categories: [a], tags: [t1] });
    await insertEvent(env, { title: 'e2', start: ON, categories: [b], tags: [t2] });
    await insertEvent(env, { title: 'e3', start: ON, categories: [a], tags: [t2] });
    await insertEvent(env, { title: 'e4', start: ON });
    const either = await listEvents(env, { categories: ['alpha', String(b)] });
    expect(either.events.map((e) => e.title)).toEqual(['e1', 'e2', 'e3']);
    expect(either.rest_url).toContain(`&categories=alpha,${b}`);
    expect(await titles(env, { categories: ['alpha'], tags: ['two'] })).toEqual(['e3']);
    expect(await titles(env, { tags: [String(t1), 'two'] })).toEqual(['e1', 'e2', 'e3']);
    // An empty list filters nothing and is not echoed.
    const all = await listEvents(env, { categories: [], venue: [], include: [] });
    expect(all.events.map((e) => e.title)).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(all.rest_url).not.toMatch(/categories|venue|include/);
  });

  it('categories and tags: unknown items, or items of the other taxonomy, are rejected', async () => {
    await insertTerm(env, 'category', 'Alpha');
    const tag = await insertTerm(env, 'tag', 'One');
    const error = await listError(env, { categories: ['alpha', 'nope'], tags: ['999999'] });
    invalidParam(error, 'categories');
    invalidParam(error, 'tags');
    expect(error.extensions?.params.categories).toContain('nope');
    invalidParam(await listError(env, { categories: [String(tag)] }), 'categories');
    invalidParam(await listError(env, { categories: ['one'] }), 'categories');
  });

  it('venue and organizer: OR within each, AND together; unknown ids rejected', async () => {
    const v1 = await insertVenue(env);
    const v2 = await insertVenue(env);
    const o1 = await insertOrganizer(env);
    const o2 = await insertOrganizer(env);
    await insertEvent(env, { title: 'e1', start: ON, venue_id: v1, organizers: [o1] });
    await insertEvent(env, { title: 'e2', start: ON, venue_id: v2, organizers: [o1, o2] });
    await insertEvent(env, { title: 'e3', start: ON, organizers: [o2] });
    expect(await titles(env, { venue: [v1, v2] })).toEqual(['e1', 'e2']);
    expect(await titles(env, { organizer: [o2] })).toEqual(['e2', 'e3']);
    expect(await titles(env, { venue: [v1], organizer: [o1] })).toEqual(['e1']);
    const list = await listEvents(env, { venue: [v1, v2], organizer: [o1] });
    expect(list.rest_url).toMatch(new RegExp(`&venue=${v1},${v2}&organizer=${o1}$`));
    invalidParam(await listError(env, { venue: [999999] }), 'venue');
    // An organizer's id is not a venue id, and the other way round.
    invalidParam(await listError(env, { venue: [o1] }), 'venue');
    invalidParam(await listError(env, { organizer: [v1] }), 'organizer');
  });

  it('featured: true only featured, false only the others', async () => {
    await insertEvent(env, { title: 'star', start: ON, featured: true });
    await insertEvent(env, { title: 'plain', start: ON });
    expect(await titles(env, { featured: true })).toEqual(['star']);
    expect(await titles(env, { featured: false })).toEqual(['plain']);
    expect(await titles(env)).toEqual(['star', 'plain']);
  });

  it('status: anonymous callers see publish only; editors every status but trash', async () => {
    await insertEvent(env, { title: 'pub', start: ON });
    await insertEvent(env, { title: 'draft', start: ON, status: 'draft' });
    await insertEvent(env, { title: 'pending', start: ON, status: 'pending' });
    await insertEvent(env, { title: 'trashed', start: ON, status: 'trash' });
    expect(await titles(env)).toEqual(['pub']);
    invalidParam(await listError(env, { status: ['draft'] }), 'status');
    expect(await titles(env, { status: ['publish'] })).toEqual(['pub']);
    const editor = await listEvents(env, {}, { as: 'editor' });
    expect(editor.events.map((e) => e.title)).toEqual(['pub', 'draft', 'pending']);
    expect(editor.rest_url).not.toContain('status=');
    const drafts = await listEvents(env, { status: ['draft', 'pending'] }, { as: 'editor' });
    expect(drafts.events.map((e) => e.title)).toEqual(['draft', 'pending']);
    expect(drafts.rest_url).toContain('&status=draft,pending');
    const contributor = await titles(env, { status: ['draft'] }, { as: 'contributor' });
    expect(contributor).toEqual(['draft']);
    invalidParam(await listError(env, { status: ['trash'] }, { as: 'editor' }), 'status');
  });

  it('never lists trashed or hidden events, not even through include', async () => {
    const shown = await insertEvent(env, { title: 'shown', start: ON });
    const hidden = await insertEvent(env, { title: 'hidden', start: ON, hide_from_listings: true });
    const trashed = await insertEvent(env, { title: 'trashed', start: ON, status: 'trash' });
    expect(await titles(env, {}, { as: 'administrator' })).toEqual(['shown']);
    const include = [shown, hidden, trashed];
    expect(await titles(env, { include }, { as: 'administrator' })).toEqual(['shown']);
  });

  it('post_parent: the children of an existing event', async () => {
    const parent = await insertEvent(env, { title: 'series', start: ON });
    await insertEvent(env, { title: 'child-1', start: '2026-12-02 10:00:00', parent_id: parent });
    await insertEvent(env, { title: 'child-2', start: '2026-12-03 10:00:00', parent_id: parent });
    const list = await listEvents(env, { post_parent: parent });
    expect(list.events.map((e) => e.title)).toEqual(['child-1', 'child-2']);
    expect(list.rest_url).toContain(`&status=publish&post_parent=${parent}`);
    invalidParam(await listError(env, { post_parent: 999999 }), 'post_parent');
    const venue = await insertVenue(env);
    invalidParam(await listError(env, { post_parent: venue }), 'post_parent');
  });

  it('ticketed: true is rejected, false has no effect', async () => {
    await insertEvent(env, { title: 'e', start: ON });
    const error = await listError(env, { ticketed: true });
    invalidParam(error, 'ticketed');
    expect(error.extensions?.params.ticketed).toBe('Ticketing is not available.');
    const list = await listEvents(env, { ticketed: false });
    expect(list.events.map((e) => e.title)).toEqual(['e']);
    expect(list.rest_url).toContain('&ticketed=false');
  });

  it('geoloc: venues with coordinates, and a radius search with an exact distance', async () => {
    const berlin = { geo_lat: 52.52, geo_lng: 13.405 };
    const near = await insertVenue(env, { ...berlin });
    // Inside the bounding box of a 25 km search but about 30 km away: the exact check drops it.
    const corner = await insertVenue(env, { geo_lat: 52.72, geo_lng: 13.705 });
    const munich = await insertVenue(env, { geo_lat: 48.137, geo_lng: 11.575 });
    const nowhere = await insertVenue(env);
    const trashed = await insertVenue(env, { ...berlin, status: 'trash' });
    await insertEvent(env, { title: 'near', start: ON, venue_id: near });
    await insertEvent(env, { title: 'corner', start: ON, venue_id: corner });
    await insertEvent(env, { title: 'munich', start: ON, venue_id: munich });
    await insertEvent(env, { title: 'nowhere', start: ON, venue_id: nowhere });
    await insertEvent(env, { title: 'trashed-venue', start: ON, venue_id: trashed });
    await insertEvent(env, { title: 'no-venue', start: ON });
    expect(await titles(env, { geoloc: true })).toEqual(['near', 'corner', 'munich']);
    const point = { geoloc_lat: berlin.geo_lat, geoloc_lng: berlin.geo_lng };
    const close = await listEvents(env, point);
    expect(close.events.map((e) => e.title)).toEqual(['near']);
    expect(close.total).toBe(1);
    expect(close.rest_url).toContain('&geoloc_lat=52.52&geoloc_lng=13.405');
    expect(await titles(env, { ...point, geoloc_radius: 35 })).toEqual(['near', 'corner']);
    // Berlin–Munich is about 504 km.
    expect(await titles(env, { ...point, geoloc_radius: 500 })).toEqual(['near', 'corner']);
    expect(await titles(env, { ...point, geoloc_radius: 510 })).toEqual([
      'near',
      'corner',
      'munich',
    ]);
  });

  it('geoloc: both coordinates are needed, in range, with a positive radius', async () => {
    invalidParam(await listError(env, { geoloc_lat: 52.5 }), 'geoloc_lng');
    invalidParam(await listError(env, { geoloc_lng: 13.4 }), 'geoloc_lat');
    invalidParam(await listError(env, { geoloc_lat: 95, geoloc_lng: 13.4 }), 'geoloc_lat');
    invalidParam(
      await listError(env, { geoloc_lat: 52.5, geoloc_lng: 13.4, geoloc_radius: 0 }),
      'geoloc_radius',
    );
  });

  it('orders by local start, then id', async () => {
    await insertEvent(env, { title: 'late', start: '2026-12-02 10:00:00' });
    await insertEvent(env, { title: 'early-b', start: '2026-12-01 09:00:00' });
    await insertEvent(env, { title: 'early-c', start: '2026-12-01 09:00:00' });
    await insertEvent(env, {
      title: 'first',
      start: '2026-12-01 08:00:00',
      timezone: 'Asia/Tokyo',
    });
    expect(await titles(env)).toEqual(['first', 'early-b', 'early-c', 'late']);
  });
});
