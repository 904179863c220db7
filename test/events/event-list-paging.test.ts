import { describeEachDb } from '../support/harness';
import {
  insertEvent,
  insertImage,
  insertOrganizer,
  insertTerm,
  insertVenue,
  listError,
  listEvents,
  listQuery,
  resetCalendar,
} from '../support/event-fixtures';

const ROOT = 'http://calendar.test/wp-json/calendar/events/v1/events/';
const WINDOW = 'start_date=2026-11-20 00:00:00&end_date=2028-11-21 23:59:59';
const WINDOW_ENCODED = 'start_date=2026-11-20+00%3A00%3A00&end_date=2028-11-21+23%3A59%3A59';

async function threeEvents(env: Parameters<typeof insertEvent>[0]): Promise<void> {
  for (const day of ['01', '02', '03']) {
    await insertEvent(env, { title: `e${day}`, start: `2026-12-${day} 10:00:00` });
  }
}

describeEachDb('events list: paging, envelope and SQL budget', (env) => {
  beforeEach(() => resetCalendar(env));

  it('pages with rest_url, next and previous links shaped like the reference', async () => {
    await threeEvents(env);
    const first = await listEvents(env, { per_page: 1 });
    expect(first).toMatchObject({ total: 3, total_pages: 3, previous_rest_url: null });
    expect(first.rest_url).toBe(`${ROOT}?page=1&per_page=1&${WINDOW}&status=publish`);
    expect(first.next_rest_url).toBe(`${ROOT}?page=2&per_page=1&${WINDOW_ENCODED}&status=publish`);
    const second = await listEvents(env, { per_page: 1, page: 2 });
    expect(second.events.map((e) => e.title)).toEqual(['e02']);
    expect(second.previous_rest_url).toBe(`${ROOT}?per_page=1&${WINDOW_ENCODED}&status=publish`);
    const last = await listEvents(env, { per_page: 1, page: 3 });
    expect(last.next_rest_url).toBeNull();
    expect(last.previous_rest_url).toBe(
      `${ROOT}?page=2&per_page=1&${WINDOW_ENCODED}&status=publish`,
    );
  });

  it('keeps every filter in next links, in the reference order', async () => {
    const cat = await insertTerm(env, 'category', 'Music');
    const venue = await insertVenue(env);
    for (let i = 0; i < 3; i++) {
      await insertEvent(env, {
        title: `Gig ${i}`,
        start: '2026-12-01 10:00:00',
        categories: [cat],
        venue_id: venue,
        featured: true,
      });
    }
    const list = await listEvents(env, {
      per_page: 2,
      search: 'gig',
      categories: ['music'],
      venue: [venue],
      featured: true,
    });
    expect(list.rest_url).toBe(
      `${ROOT}?page=1&per_page=2&${WINDOW}&search=gig&status=publish&categories=music&venue=${venue}&featured=true`,
    );
    expect(list.next_rest_url).toBe(
      `${ROOT}?page=2&per_page=2&${WINDOW_ENCODED}&search=gig&status=publish&categories=music&venue=${venue}&featured=true`,
    );
  });

  it('answers an empty first page with zeros and a page past the end with 404', async () => {
    const empty = await listEvents(env);
    expect(empty).toMatchObject({ events: [], total: 0, total_pages: 0, next_rest_url: null });
    let error = await listError(env, { page: 2 });
    expect(error.extensions).toMatchObject({
      code: 'NOT_FOUND',
      rest_code: 'event-archive-page-not-found',
    });
    await threeEvents(env);
    error = await listError(env, { page: 2, per_page: 3 });
    expect(error.extensions?.rest_code).toBe('event-archive-page-not-found');
  });

  it('validates page and per_page, and caps per_page at 50', async () => {
    for (const bad of [{ page: 0 }, { per_page: 0 }, { per_page: -3 }]) {
      const error = await listError(env, bad);
      expect(error.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        rest_code: 'rest_invalid_param',
      });
      expect(Object.keys(error.extensions?.params)).toEqual(Object.keys(bad));
    }
    const capped = await listEvents(env, { per_page: 500 });
    expect(capped.rest_url).toContain('?page=1&per_page=50&');
  });

  it('costs the same few queries for 5 or 50 events with nested data', async () => {
    const cats = [await insertTerm(env, 'category', 'A'), await insertTerm(env, 'category', 'B')];
    const tag = await insertTerm(env, 'tag', 'T');
    const venues = [await insertVenue(env), await insertVenue(env), await insertVenue(env)];
    const orgs = [await insertOrganizer(env), await insertOrganizer(env)];
    const image = await insertImage(env, 'https://img.example/a.jpg');
    for (let i = 0; i < 60; i++) {
      await insertEvent(env, {
        title: `E${i}`,
        start: `2027-01-${String((i % 28) + 1).padStart(2, '0')} 10:00:00`,
        venue_id: venues[i % 3],
        organizers: i % 2 ? orgs : [orgs[0] as number],
        categories: [cats[i % 2] as number],
        tags: [tag],
        // Every page of either size includes an image, so both pay for the image query.
        image_id: i % 4 === 0 ? image : null,
      });
    }
    const fields = `id title image { url } venue { id slug } organizer { id slug }
      categories { id slug name } tags { id slug } website cost cost_details { values }`;
    const query = listQuery(fields);
    // The first list after the writes counts its total; later pages of the filter reuse it.
    await env.ok(query, { per_page: 1 });
    let five = 0;
    const small = await env.countQueries(async () => {
      const r = await env.ok(query, { per_page: 5 });
      five = r.events.events.length;
    });
    let fifty = 0;
    const large = await env.countQueries(async () => {
      const r = await env.ok(query, { per_page: 50 });
      fifty = r.events.events.length;
    });
    expect([five, fifty]).toEqual([5, 50]);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(6);
  });
});
