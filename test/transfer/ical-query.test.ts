import ICAL from 'ical.js';
import { describeEachDb, type Caller, type TestEnv } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { createSample, type Sample } from './import-support';

/**
 * `/events/?ical=1` (docs/feeds.md), the address calendar apps subscribe to: the same feed as
 * `{api_root}/calendar/events/v1/events.ics` with the same query parameters, ETag and 304.
 */

function uids(text: string): string[] {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  return calendar
    .getAllSubcomponents('vevent')
    .map((v) => String(v.getFirstPropertyValue('uid')))
    .sort();
}

async function site(
  env: TestEnv,
  path: string,
  options: { as?: Caller; headers?: Record<string, string> } = {},
) {
  const response = await env.app.yoga.fetch(`http://localhost${path}`, {
    headers: { ...(await env.authHeaders(options.as)), ...options.headers },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describeEachDb('The calendar apps feed /events/?ical=1', (env) => {
  const rest = new RestClient(env);
  let sample: Sample;

  beforeAll(async () => {
    sample = await createSample(env);
  });

  it('lists the same events as events.ics, with the same headers and PRODID', async () => {
    const feed = await rest.get('/events.ics');
    for (const path of ['/events/?ical=1', '/events?ical=1']) {
      const response = await site(env, path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      expect(response.headers.get('etag')).toBe(feed.headers.get('etag'));
      expect(uids(response.text)).toEqual(uids(feed.text));
      expect(uids(response.text)).toEqual([sample.jazz.global_id, sample.secret.global_id].sort());
      expect(response.text).toContain('PRODID:-//calendar-service//Events//EN\r\n');
      expect(response.text).toBe(feed.text);
    }
  });

  it('passes the query parameters through as filters', async () => {
    const query = 'categories=concerts&search=jazz';
    const filtered = await site(env, `/events/?ical=1&${query}`);
    expect(uids(filtered.text)).toEqual([sample.jazz.global_id]);
    expect(uids(filtered.text)).toEqual(uids((await rest.get(`/events.ics?${query}`)).text));
    const drafts = await site(env, '/events/?ical=1&categories=markets&status=draft', {
      as: 'editor',
    });
    expect(uids(drafts.text)).toEqual([sample.fair.global_id]);
    const bad = await site(env, '/events/?ical=1&limit=0');
    expect(bad.status).toBe(400);
    expectError({ ...bad, body: JSON.parse(bad.text) }, 400, 'rest_invalid_param');
  });

  it('answers 304 to its ETag, and HEAD without a body', async () => {
    const first = await site(env, '/events/?ical=1');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await site(env, '/events/?ical=1', { headers: { 'if-none-match': etag } });
    expect({ status: again.status, text: again.text }).toEqual({ status: 304, text: '' });
    expect(again.headers.get('etag')).toBe(etag);
    const head = await env.app.yoga.fetch('http://localhost/events/?ical=1', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('leaves /events/ without ical=1 to the calendar page (issue 22)', async () => {
    for (const path of ['/events/', '/events/?ical=0', '/events/?format=ical']) {
      const response = await site(env, path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(response.headers.get('content-type') ?? '').toBe('text/html; charset=utf-8');
    }
  });
});
