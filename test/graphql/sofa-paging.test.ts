import { resetCalendar } from '../support/event-fixtures';
import { describeEachDb, type TestEnv } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';

/**
 * The SOFA view reads list parameters as the REST routes do (`a,b`, `a[]=`, repeated keys) and
 * links each list page to its neighbours in a `Link` header that stays inside the view.
 */

const SOFA = 'http://localhost/wp-json/calendar/rest';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function sofa(
  env: TestEnv,
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await env.app.yoga.fetch(`${SOFA}${pathAndQuery}`, { headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

/** The `rel` links of a Link header, by rel. */
function links(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (headers.get('link') ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (match) out[match[2]!] = match[1]!;
  }
  return out;
}

/** A link of the view as a path below its base, to follow with `sofa`. */
function viewPath(link: string): string {
  const url = new URL(link);
  expect(url.pathname.startsWith('/wp-json/calendar/rest/')).toBe(true);
  return url.pathname.slice('/wp-json/calendar/rest'.length) + url.search;
}

const BI_ORIGIN = 'https://bi.example';

const ids = (events: any[]): number[] => events.map((e) => e.id);

describeEachDb(
  'SOFA view: list forms and paging',
  (env) => {
    const rest = new RestClient(env);
    let terms: Record<string, { id: number; slug: string }>;

    beforeAll(async () => {
      await resetCalendar(env);
      const made = [];
      for (const [day, category] of [
        ['10', 'Concerts'],
        ['11', 'Talks'],
        ['12', 'Concerts'],
        ['13', 'Other'],
        ['14', 'Talks'],
      ] as const) {
        const created = await rest.post(
          '/events',
          {
            title: `Event ${day}`,
            start_date: `2027-03-${day} 19:00:00`,
            end_date: `2027-03-${day} 22:00:00`,
            categories: [category],
          },
          { as: 'administrator' },
        );
        expect(created.status).toBe(201);
        made.push(created.body);
      }
      terms = {};
      for (const event of made) {
        for (const term of event.categories) terms[term.name] = { id: term.id, slug: term.slug };
      }
    });

    it.each([
      ['slugs as CSV', () => `categories=${terms.Concerts!.slug},${terms.Talks!.slug}`],
      ['ids as CSV', () => `categories=${terms.Concerts!.id},${terms.Talks!.id}`],
      [
        'bracket keys',
        () => `categories[]=${terms.Concerts!.slug}&categories[]=${terms.Talks!.id}`,
      ],
      ['repeated keys', () => `categories=${terms.Concerts!.id}&categories=${terms.Talks!.slug}`],
    ])('answers the REST route’s events for categories as %s', async (_, query) => {
      const expected = await rest.get(`/events?${query()}&per_page=50`);
      expect(expected.status).toBe(200);
      expect(expected.body.total).toBe(4);
      const { status, body } = await sofa(env, `/events?${query()}&per_page=50`);
      expect(status).toBe(200);
      expect(body.total).toBe(4);
      expect(ids(body.events)).toEqual(ids(expected.body.events));
    });

    it('links page 1 to page 2 inside the view, keeping every filter; the last page has no next', async () => {
      const query = `categories=${terms.Concerts!.slug},${terms.Talks!.slug}&per_page=3`;
      const first = await sofa(env, `/events?${query}`, { origin: BI_ORIGIN });
      expect(first.status).toBe(200);
      expect(first.body.total_pages).toBe(2);
      // A browser-based tool may read the header.
      expect(first.headers.get('access-control-allow-origin')).toBe(BI_ORIGIN);
      expect(first.headers.get('access-control-expose-headers')).toContain('Link');
      const firstLinks = links(first.headers);
      expect(Object.keys(firstLinks)).toEqual(['next']);
      expect(firstLinks.next).toBe(
        `http://calendar.test/wp-json/calendar/rest/events?${query}&page=2`,
      );

      const second = await sofa(env, viewPath(firstLinks.next!));
      expect(second.status).toBe(200);
      const restSecond = await rest.get(`/events?${query}&page=2`);
      expect(ids(second.body.events)).toEqual(ids(restSecond.body.events));
      expect(ids(second.body.events)).toHaveLength(1);
      const secondLinks = links(second.headers);
      expect(secondLinks).not.toHaveProperty('next');
      expect(viewPath(secondLinks.prev!)).toBe(`/events?${query}&page=1`);
      const back = await sofa(env, viewPath(secondLinks.prev!));
      expect(ids(back.body.events)).toEqual(ids(first.body.events));

      // One page only: no link at all.
      const single = await sofa(env, `/events?${query}&per_page=50`);
      expect(single.headers.get('link')).toBeNull();
    });

    it('links the pages of the other lists too', async () => {
      const first = await sofa(env, '/categories?per_page=1&order=DESC');
      expect(first.status).toBe(200);
      expect(first.body.total_pages).toBeGreaterThan(1);
      const next = links(first.headers).next!;
      expect(viewPath(next)).toBe('/categories?per_page=1&order=DESC&page=2');
      const second = await sofa(env, viewPath(next));
      expect(second.status).toBe(200);
      const restSecond = await rest.get('/categories?per_page=1&order=DESC&page=2');
      expect(second.body.categories[0].id).toBe(restSecond.body.categories[0].id);
      expect(second.body.categories[0].id).not.toBe(first.body.categories[0].id);
    });

    it('refuses more list values than sofa-api can read, naming the parameter', async () => {
      const statuses = (n: number): string => Array(n).fill('publish').join(',');
      const { status, body } = await sofa(env, `/events?status=${statuses(21)}`);
      expect(status).toBe(400);
      expect(body.errors[0].extensions.params).toEqual({
        status: 'status takes at most 20 values in this view.',
      });
      const twenty = await sofa(env, `/events?status=${statuses(20)}`);
      expect(twenty.status).toBe(200);
      expect(twenty.body.total).toBe(5);
    });

    it.each([
      ['venue=1,abc', 'venue'],
      ['status=publish,bogus', 'status'],
      ['per_page=zero', 'per_page'],
    ])('answers %s with a 400 like the REST route', async (query, name) => {
      const expected = await rest.get(`/events?${query}`);
      expectError(expected, 400, 'rest_invalid_param');
      const { status, body } = await sofa(env, `/events?${query}`);
      expect(status).toBe(400);
      expect(body.errors[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        rest_code: 'rest_invalid_param',
      });
      expect(body.errors[0].extensions.params).toEqual(expected.body.data.params);
      expect(Object.keys(body.errors[0].extensions.params)).toEqual([name]);
    });
  },
  { CORS_ORIGINS: BI_ORIGIN },
);
