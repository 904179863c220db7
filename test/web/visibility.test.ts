import { describeEachDb, TestEnv } from '../support/harness';
import { API, fetchPage, h1, jsonLd } from './support';

/**
 * The pages' visibility is the API's (issue 22, item 4): drafts, pending, private and trashed
 * records are 404 pages to callers who may not read them, with nothing of their content; a
 * password-protected event is a form until its password is posted. Plus the pages' caching
 * headers and the HTTP limits they share with the API.
 */

const CREATE = `mutation ($input: EventInput!) { create_event(input: $input) { id slug } }`;

describeEachDb('page visibility, passwords and caching', (env) => {
  const slugs: Record<string, string> = {};

  async function make(key: string, input: Record<string, unknown>): Promise<void> {
    const made = await env.ok(
      CREATE,
      {
        input: {
          start_date: '2026-12-05 19:00:00',
          end_date: '2026-12-05 22:00:00',
          ...input,
        },
      },
      { as: 'administrator' },
    );
    slugs[key] = made.create_event.slug;
  }

  beforeAll(async () => {
    await make('public', { title: 'Open Rehearsal', description: 'Everyone welcome.' });
    await make('draft', {
      title: 'Hidden Draft Gala',
      description: 'SECRET-DRAFT-TEXT',
      status: 'draft',
    });
    await make('pending', {
      title: 'Pending Picnic',
      description: 'SECRET-PENDING',
      status: 'pending',
    });
    await make('private', {
      title: 'Private Party',
      description: 'SECRET-PRIVATE',
      status: 'private',
    });
    await make('trashed', { title: 'Binned Ball', description: 'SECRET-TRASH' });
    await make('protected', {
      title: 'Members Evening',
      description: 'The door code is 4321.',
      password: 'opensesame',
    });
    const trashed = await fetchPage(env, `${API}/events?search=Binned`);
    const id = JSON.parse(trashed.text).events[0].id;
    const deleted = await fetchPage(env, `${API}/events/${id}`, {
      method: 'DELETE',
      headers: await env.authHeaders('administrator'),
    });
    expect(deleted.status).toBe(200);
  });

  it('answers hidden events with the 404 page to anonymous callers, with nothing of their content', async () => {
    const hidden: [string, string][] = [
      ['draft', 'SECRET-DRAFT-TEXT'],
      ['pending', 'SECRET-PENDING'],
      ['private', 'SECRET-PRIVATE'],
      ['trashed', 'SECRET-TRASH'],
    ];
    for (const [key, secret] of hidden) {
      const page = await fetchPage(env, `/event/${slugs[key]}/`);
      expect({ key, status: page.status }).toEqual({ key, status: 404 });
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(h1(page.text)).toBe('Page not found');
      expect(page.text).not.toContain(secret);
      expect(page.text).not.toMatch(/Hidden Draft Gala|Pending Picnic|Private Party|Binned Ball/);
      expect(page.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('shows a draft to an editor who may read it, privately cached and not indexed', async () => {
    const page = await fetchPage(env, `/event/${slugs.draft}/`, {
      headers: await env.authHeaders('editor'),
    });
    expect(page.status).toBe(200);
    expect(h1(page.text)).toBe('Hidden Draft Gala');
    expect(page.text).toContain('SECRET-DRAFT-TEXT');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('<meta name="robots" content="noindex">');
    // A subscriber sees what anonymous callers see.
    const subscriber = await fetchPage(env, `/event/${slugs.draft}/`, {
      headers: await env.authHeaders('subscriber'),
    });
    expect(subscriber.status).toBe(404);
    // A wrong credential is refused as by the API, not shown as anonymous.
    const wrong = await fetchPage(env, `/event/${slugs.public}/`, {
      headers: { authorization: 'Bearer not-a-real-token-000000000000' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('asks for a protected event’s password, shows nothing of it before, and shows it once posted', async () => {
    const target = `/event/${slugs.protected}/`;
    const form = await fetchPage(env, target);
    expect(form.status).toBe(200);
    expect(h1(form.text)).toBe('This event is password protected');
    expect(form.text).toContain(`<form class="password-form" method="post" action="${target}">`);
    expect(form.text).not.toMatch(/Members Evening|4321/);
    expect(jsonLd(form.text)).toEqual([]);
    expect(form.headers.get('cache-control')).toBe('no-store');

    const post = (password: string) =>
      fetchPage(env, target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      });
    const wrong = await post('guess');
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('role="alert"');
    expect(wrong.text).not.toMatch(/Members Evening|4321/);

    const right = await post('opensesame');
    expect(right.status).toBe(200);
    expect(h1(right.text)).toBe('Members Evening');
    expect(right.text).toContain('The door code is 4321.');
    expect(right.headers.get('cache-control')).toBe('no-store');
    // Protected events have no JSON-LD (as the API's json_ld) and no public .ics link.
    expect(jsonLd(right.text)).toEqual([]);
    expect(right.text).not.toContain('.ics" type="text/calendar">Download');
    // A password in the address is not how pages take it.
    const query = await fetchPage(env, `${target}?password=opensesame`);
    expect(query.text).not.toContain('4321');
  });

  it('escapes what records hold: markup in a title is text, and cannot close the JSON-LD', async () => {
    const title = '</script><script>alert(1)</script> & <b>Bold</b>';
    await make('markup', {
      title,
      description: '<p>Fine</p><script>alert(2)</script><img src=x onerror="alert(3)">',
    });
    const page = await fetchPage(env, `/event/${slugs.markup}/`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<script>|<b>Bold|onerror|alert\(2\)/);
    expect(h1(page.text)).toBe(title);
    const [ld] = jsonLd(page.text);
    expect(ld.name).toBe(title);
    expect(page.text).toContain('<p>Fine</p>');
  });

  it('sends ETags (304 when unchanged) and public caching for anonymous views', async () => {
    const target = `/event/${slugs.public}/`;
    const first = await fetchPage(env, target);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect(first.headers.get('vary')).toMatch(/Authorization/);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetchPage(env, target, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const head = await fetchPage(env, target, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('leaves /events/?ical=1 to the feed and answers other /events/ addresses with the page', async () => {
    const feed = await fetchPage(env, '/events/?ical=1');
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(feed.text).toContain('Open Rehearsal');
    expect(feed.text).not.toContain('Hidden Draft Gala');
    const page = await fetchPage(env, '/events/?ical=0');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers bad filters with a 400 page and pages past the end with a 404 page', async () => {
    const badCategory = await fetchPage(env, '/events/?category=no-such-category');
    expect(badCategory.status).toBe(400);
    expect(badCategory.text).toContain('no-such-category');
    expect((await fetchPage(env, '/events/?month=2026-13')).status).toBe(400);
    expect((await fetchPage(env, '/events/?page=0')).status).toBe(400);
    expect((await fetchPage(env, '/events/?page=99')).status).toBe(404);
  });
});

describe('pages under the HTTP limits [sqlite]', () => {
  const env = new TestEnv('sqlite', { REQUEST_MAX_STATEMENTS: '2' });
  beforeAll(() => env.start(), 60_000);
  afterAll(() => env.stop());

  it('answers a page that needs more statements than REQUEST_MAX_STATEMENTS with a 503 page', async () => {
    const page = await fetchPage(env, '/events/');
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('retry-after')).toBe('1');
    expect(h1(page.text)).toBe('The calendar is busy');
  });
});
