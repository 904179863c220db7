import { describeEachDb } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * NAMESPACE_ALIASES (docs/contract.md §1): a client calling an alias gets REST addresses under that
 * alias — `rest_url`, list links and their `Link` header, term `urls` (top level and inside
 * events), GET / and GET /doc — while the canonical namespace and GraphQL keep theirs.
 */

const SITE = 'http://calendar.test/wp-json';
const TRIBE = { namespace: 'tribe/events/v1' };

describeEachDb(
  'REST addresses follow the namespace of the request',
  (env) => {
    const rest = new RestClient(env);
    const admin = { as: 'administrator' as const };
    const dates = { start_date: '2027-02-01 10:00:00', end_date: '2027-02-01 12:00:00' };
    let parent: any;
    let child: any;
    let first: any;

    beforeAll(async () => {
      parent = (await rest.post('/categories', { name: 'Arts' }, { ...admin, ...TRIBE })).body;
      child = (
        await rest.post('/categories', { name: 'Opera', parent: parent.id }, { ...admin, ...TRIBE })
      ).body;
      first = (
        await rest.post(
          '/events',
          { title: 'One', ...dates, categories: [child.id], tags: ['loud'] },
          { ...admin, ...TRIBE },
        )
      ).body;
      await rest.post('/events', { title: 'Two', ...dates }, admin);
      await rest.post('/events', { title: 'Three', ...dates }, admin);
    });

    it('uses the alias in single records and nested terms', async () => {
      expect(first.rest_url).toBe(`${SITE}/tribe/events/v1/events/${first.id}`);
      expect(first.categories[0].urls).toEqual({
        self: `${SITE}/tribe/events/v1/categories/${child.id}`,
        collection: `${SITE}/tribe/events/v1/categories`,
        up: `${SITE}/tribe/events/v1/categories/${parent.id}`,
      });
      expect(first.tags[0].urls.collection).toBe(`${SITE}/tribe/events/v1/tags`);
      expect(child.urls.self).toBe(`${SITE}/tribe/events/v1/categories/${child.id}`);
      const read = await rest.get(`/events/by-slug/${first.slug}`, TRIBE);
      expect(read.body.rest_url).toBe(first.rest_url);
      const canonical = await rest.get(`/events/${first.id}`);
      expect(canonical.body.rest_url).toBe(`${SITE}/calendar/events/v1/events/${first.id}`);
      expect(canonical.body.categories[0].urls.up).toBe(
        `${SITE}/calendar/events/v1/categories/${parent.id}`,
      );
    });

    it('uses the alias in list envelopes and the Link header', async () => {
      const page1 = await rest.get('/events?per_page=1', TRIBE);
      expect(page1.body.rest_url).toMatch(
        /^http:\/\/calendar\.test\/wp-json\/tribe\/events\/v1\/events\/\?page=1/,
      );
      expect(page1.body.next_rest_url).toMatch(/\/wp-json\/tribe\/events\/v1\/events\/\?page=2/);
      expect(page1.headers.get('link')).toContain(`<${page1.body.next_rest_url}>; rel="next"`);
      const page2 = await rest.get('/events?per_page=1&page=2', TRIBE);
      expect(page2.body.previous_rest_url).toMatch(
        /\/wp-json\/tribe\/events\/v1\/events\/\?per_page=1/,
      );
      for (const collection of ['venues', 'organizers', 'categories', 'tags']) {
        const list = await rest.get(`/${collection}?hide_empty=0`, TRIBE);
        expect(list.body.rest_url).toContain(`/wp-json/tribe/events/v1/${collection}/?`);
      }
      const terms = await rest.get('/categories', TRIBE);
      expect(terms.body.categories.map((c: any) => c.urls.collection)).toEqual(
        terms.body.categories.map(() => `${SITE}/tribe/events/v1/categories`),
      );
      const canonical = await rest.get('/events?per_page=1');
      expect(canonical.body.next_rest_url).toContain('/wp-json/calendar/events/v1/events/?');
    });

    it('uses the alias in GET / and GET /doc', async () => {
      const doc = await rest.get('/doc', TRIBE);
      expect(doc.body.servers).toEqual([{ url: `${SITE}/tribe/events/v1/` }]);
      const index = await rest.get('', TRIBE);
      expect(index.body.namespace).toBe('tribe/events/v1');
      expect(index.body.routes['/tribe/events/v1/venues']._links.self[0].href).toBe(
        `${SITE}/tribe/events/v1/venues`,
      );
      const other = await rest.get('/?namespace=calendar/events/v1', TRIBE);
      expect(other.body.namespace).toBe('calendar/events/v1');
      expect((await rest.get('/doc')).body.servers[0].url).toBe(`${SITE}/calendar/events/v1/`);
    });

    it('leaves GraphQL on the canonical namespace', async () => {
      const data = await env.ok(`query ($id: Int!) { event(id: $id) { rest_url } }`, {
        id: first.id,
      });
      expect(data.event.rest_url).toBe(`${SITE}/calendar/events/v1/events/${first.id}`);
    });
  },
  { NAMESPACE_ALIASES: 'tribe/events/v1' },
);
