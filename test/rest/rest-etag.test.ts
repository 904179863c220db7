import { resetCalendar } from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * Conditional GETs on the REST contract (issue 6: ETag/304 on public GETs): a 200 to GET or
 * HEAD carries an ETag of its body; `If-None-Match` with it answers 304 without a body until
 * the data changes. Errors and writes carry none.
 */

describeEachDb('REST conditional GETs', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };

  beforeEach(() => resetCalendar(env));

  async function createEvent(title: string): Promise<number> {
    const response = await rest.post(
      '/events',
      { title, start_date: '2027-05-01 19:00:00', end_date: '2027-05-01 21:00:00' },
      admin,
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('etag')).toBeNull();
    return response.body.id as number;
  }

  it('answers 304 to a matching If-None-Match, and 200 with a new tag once the list changes', async () => {
    await createEvent('First');
    const first = await rest.get('/events');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{11}"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');

    const again = await rest.get('/events', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // Weak comparison, lists of tags and `*`, as RFC 9110 asks of If-None-Match.
    for (const header of [`W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await rest.get('/events', { headers: { 'if-none-match': header } });
      expect(response.status).toBe(304);
    }
    expect((await rest.get('/events', { headers: { 'if-none-match': '"stale"' } })).status).toBe(
      200,
    );

    await createEvent('Second');
    const changed = await rest.get('/events', { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.body.total).toBe(2);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('tags single reads and HEAD with the same validator as GET', async () => {
    const id = await createEvent('Tagged');
    const get = await rest.get(`/events/${id}`);
    const head = await rest.head(`/events/${id}`);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    const conditional = await rest.head(`/events/${id}`, {
      headers: { 'if-none-match': get.headers.get('etag')! },
    });
    expect(conditional.status).toBe(304);
  });

  it('sends no validator with errors', async () => {
    const missing = await rest.get('/events/999999');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });
});
