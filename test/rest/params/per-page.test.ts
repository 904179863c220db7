import { insertEvent, insertVenue } from '../../support/event-fixtures';
import { describeEachDb } from '../../support/harness';
import { RestClient } from '../../support/rest/rest-client';

/**
 * One `per_page` rule for every list (docs/contract.md §5 "Paging"): above PER_PAGE_MAX it is
 * capped however large the value, on the REST routes, the SOFA view and GraphQL arguments alike;
 * zero and negative values, however large, are the same 400.
 */

const LISTS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
const HUGE = ['51', '999999', '2147483647', '2147483648', '99999999999999999999', '9'.repeat(400)];

describeEachDb('per_page', (env) => {
  const rest = new RestClient(env);

  beforeAll(async () => {
    const venue = await insertVenue(env, { title: 'Paging hall' });
    for (let i = 0; i < 3; i++) {
      await insertEvent(env, {
        title: `Paged ${i}`,
        start: '2026-12-01 10:00:00',
        venue_id: venue,
      });
    }
  });

  it.each(LISTS)('caps any over-large per_page on REST /%s alike', async (list) => {
    const capped = await rest.get(`/${list}?per_page=50`);
    expect(capped.status).toBe(200);
    for (const value of HUGE) {
      const answer = await rest.get(`/${list}?per_page=${value}`);
      expect({ value, status: answer.status }).toEqual({ value, status: 200 });
      expect(answer.body).toEqual(capped.body);
      expect(answer.headers.get('x-wp-totalpages')).toBe(capped.headers.get('x-wp-totalpages'));
    }
    // JSON bodies follow the same rule (a number beyond a GraphQL Int).
    const json = await rest.request('GET', `/${list}`, { json: { per_page: 1e12 } });
    expect(json.status).toBe(200);
    expect(json.body).toEqual(capped.body);
  });

  it.each(LISTS)(
    'answers zero and negative per_page on REST /%s with the same 400',
    async (list) => {
      const expected = await rest.get(`/${list}?per_page=-1`);
      expect(expected.status).toBe(400);
      expect(expected.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { per_page: expect.stringMatching(/positive integer/) } },
      });
      for (const value of ['0', '-2147483648', '-99999999999999999999']) {
        const answer = await rest.get(`/${list}?per_page=${value}`);
        expect({ value, status: answer.status, body: answer.body }).toEqual({
          value,
          status: 400,
          body: expected.body,
        });
      }
      for (const value of ['1.5', 'ten', '1e3']) {
        expect((await rest.get(`/${list}?per_page=${value}`)).status).toBe(400);
      }
    },
  );

  it.each(LISTS)('caps any over-large per_page on the SOFA view /%s alike', async (list) => {
    const url = (value: string) =>
      `http://localhost${env.config.apiRoot}/calendar/rest/${list}?per_page=${value}`;
    const capped = await env.app.yoga.fetch(url('50'));
    expect(capped.status).toBe(200);
    const body = await capped.json();
    for (const value of HUGE) {
      const answer = await env.app.yoga.fetch(url(value));
      expect({ value, status: answer.status }).toEqual({ value, status: 200 });
      expect(await answer.json()).toEqual(body);
    }
    const negative = await env.app.yoga.fetch(url('-1'));
    const hugeNegative = await env.app.yoga.fetch(url('-99999999999'));
    expect(negative.status).toBe(400);
    expect(hugeNegative.status).toBe(400);
    expect(await hugeNegative.json()).toEqual(await negative.json());
  });

  it('caps every Int per_page of the GraphQL lists alike', async () => {
    const query = (n: number) => `{
      events(per_page: ${n}) { total total_pages rest_url events { id } }
      venues(per_page: ${n}) { total total_pages events: venues { id } }
      organizers(per_page: ${n}) { total total_pages }
      categories(per_page: ${n}) { total total_pages }
      tags(per_page: ${n}) { total total_pages }
    }`;
    const capped = await env.ok(query(50));
    expect(capped.events.rest_url).toContain('per_page=50');
    for (const n of [51, 999999, 2147483647]) expect(await env.ok(query(n))).toEqual(capped);
    // Beyond a 32-bit Int a value is not an Int (the GraphQL spec): a client error, never a 5xx.
    const response = await env.app.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'query($n: Int) { events(per_page: $n) { total } }',
        variables: { n: 2147483648 },
      }),
    });
    expect(response.status).toBeLessThan(500);
    const result = await response.json();
    expect(result.errors[0].extensions.code).toMatch(/BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
  });
});
