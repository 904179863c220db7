import { cli } from '../transfer/import-support';
import { describeEachDb } from '../support/harness';
import { API, fetchPage, h1, hrefOf, jsonLd, rest, textOf, utcMs } from './support';

/**
 * Issue 22's acceptance on a seeded demo calendar, on each database: every `url` of a sample of
 * REST records answers 200 HTML about that record; event pages embed a schema.org Event whose
 * dates are the API's instants; the start page's links answer; unknown slugs and hidden records
 * are 404 pages with nothing of their content.
 */

jest.setTimeout(120_000);

describeEachDb('the public pages on a seeded demo calendar', (env) => {
  beforeAll(async () => {
    const seeded = await cli(env, 'seed:demo', '--events', '60');
    if (seeded.status !== 0) throw new Error(seeded.stderr);
  });

  it('answers 200 HTML about the record at the url of every event, venue, organizer, category and tag', async () => {
    const samples: [string, (r: any) => string][] = [
      ['/events?per_page=25', (r) => r.title],
      ['/venues?per_page=10', (r) => r.venue],
      ['/organizers?per_page=10', (r) => r.organizer],
      ['/categories?per_page=10', (r) => r.name],
      ['/tags?per_page=10', (r) => r.name],
    ];
    let checked = 0;
    for (const [path, nameOf] of samples) {
      const body = await rest(env, path);
      const records: any[] =
        body.events ?? body.venues ?? body.organizers ?? body.categories ?? body.tags;
      expect(records.length).toBeGreaterThan(0);
      for (const record of records) {
        const page = await fetchPage(env, record.url);
        expect({ url: record.url, status: page.status }).toEqual({ url: record.url, status: 200 });
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        // The page is about that record: its heading names it as the API renders it.
        expect(h1(page.text)).toContain(textOf(nameOf(record)));
        expect(page.text).toContain(`<link rel="canonical" href="${record.url}">`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('embeds a schema.org Event whose dates are the API’s utc_ instants, with place, organizer and offers', async () => {
    const { events } = await rest(env, '/events?per_page=25');
    for (const event of events) {
      const page = await fetchPage(env, event.url);
      const docs = jsonLd(page.text);
      const ld = docs.find((d) => d['@type'] === 'Event');
      expect(ld).toBeDefined();
      expect(Date.parse(ld.startDate)).toBe(utcMs(event.utc_start_date));
      expect(Date.parse(ld.endDate)).toBe(utcMs(event.utc_end_date));
      expect(ld.startDate).toMatch(/[+-]\d{2}:\d{2}$|Z$/);
      expect(ld.url).toBe(event.url);
      expect(ld.eventStatus).toBe('https://schema.org/EventScheduled');
      if (event.venue?.venue) {
        expect(ld.location['@type']).toBe('Place');
        expect(ld.location.address['@type']).toBe('PostalAddress');
      }
      if (event.organizer.length) expect(ld.organizer.name).toBeTruthy();
      // The same instant is on the page, machine-readable.
      expect(page.text).toContain(`<time datetime="${ld.startDate}">`);
      // Open Graph and Twitter card meta.
      expect(page.text).toContain('<meta property="og:type" content="article">');
      expect(page.text).toMatch(/<meta name="twitter:card" content="summary/);
    }
    const { venues } = await rest(env, '/venues?per_page=1');
    expect(jsonLd((await fetchPage(env, venues[0].url)).text)[0]['@type']).toBe('Place');
    const { organizers } = await rest(env, '/organizers?per_page=1');
    expect(jsonLd((await fetchPage(env, organizers[0].url)).text)[0]['@type']).toBe('Organization');
  });

  it('shows an event’s details: venue with address and map link, organizers, terms, cost, calendar links', async () => {
    const { events } = await rest(env, '/events?per_page=25');
    const event = events.find((e: any) => e.venue?.venue && e.tags.length && e.cost);
    expect(event).toBeDefined();
    const { text } = await fetchPage(env, event.url);
    expect(textOf(text)).toContain(textOf(event.venue.venue));
    expect(text).toContain(event.venue.address);
    expect(hrefOf(text, 'Map of')).toMatch(/^https:\/\/www\.openstreetmap\.org\//);
    for (const o of event.organizer) expect(textOf(text)).toContain(textOf(o.organizer));
    for (const t of [...event.categories, ...event.tags]) {
      // Nested terms carry no url: their page is named by the slug (categories nest parents').
      const prefix = t.taxonomy === 'post_tag' ? '/tag/' : '/events/category/(.+/)?';
      expect(hrefOf(text, textOf(t.name))).toMatch(new RegExp(`^${prefix}${t.slug}/$`));
    }
    expect(textOf(text)).toContain(event.cost);
    expect(hrefOf(text, 'iCalendar')).toBe(`${API}/events/${event.id}.ics`);
    const google = new URL(hrefOf(text, 'Google Calendar')!);
    expect(google.searchParams.get('action')).toBe('TEMPLATE');
    expect(google.searchParams.get('text')).toBe(textOf(event.title));
    const ics = await fetchPage(env, hrefOf(text, 'Download')!);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
  });

  it('starts at / with two lines and links to the calendar, GraphiQL, the REST index, the OpenAPI document and a feed, each answering', async () => {
    const home = await fetchPage(env, '/');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const links = {
      calendar: hrefOf(home.text, 'The calendar'),
      graphiql: hrefOf(home.text, 'GraphQL'),
      restIndex: hrefOf(home.text, 'REST API index'),
      openapi: hrefOf(home.text, 'OpenAPI document'),
      feed: hrefOf(home.text, 'iCalendar feed'),
    };
    expect(links).toEqual({
      calendar: '/events/',
      graphiql: '/graphql',
      restIndex: '/wp-json/',
      openapi: `${API}/doc`,
      feed: `${API}/events.ics`,
    });
    const asBrowser = { headers: { accept: 'text/html' } };
    const graphiql = await fetchPage(env, links.graphiql!, asBrowser);
    expect(graphiql.status).toBe(200);
    expect(graphiql.text).toMatch(/graphiql/i);
    expect(JSON.parse((await fetchPage(env, links.restIndex!)).text).namespaces).toBeDefined();
    expect(JSON.parse((await fetchPage(env, links.openapi!)).text).openapi).toMatch(/^3\./);
    const feed = await fetchPage(env, links.feed!);
    expect(feed.text).toMatch(/^BEGIN:VCALENDAR/);
    const calendar = await fetchPage(env, links.calendar!);
    expect(calendar.status).toBe(200);
    expect(h1(calendar.text)).toBe('Upcoming events');
  });

  it('shows the calendar as a list, a day, a month grid, and filtered by category and tag', async () => {
    const { events } = await rest(env, '/events?per_page=50');
    const titles = (html: string) =>
      [...html.matchAll(/<h3 class="title"><a [^>]*>([\s\S]*?)<\/a><\/h3>/g)].map((m) =>
        textOf(m[1]!),
      );
    // The list is the API's first page, in its order.
    const list = await fetchPage(env, '/events/');
    expect(titles(list.text)).toEqual(events.slice(0, 10).map((e: any) => textOf(e.title)));

    const first = events[0];
    const day = first.start_date.slice(0, 10);
    const onDay = await rest(env, `/events?start_date=${day}&end_date=${day}&per_page=50`);
    const dayPage = await fetchPage(env, `/events/?date=${day}`);
    expect(titles(dayPage.text)).toEqual(
      onDay.events.slice(0, 10).map((e: any) => textOf(e.title)),
    );

    const month = await fetchPage(env, `/events/?month=${day.slice(0, 7)}`);
    expect(month.status).toBe(200);
    const cell = new RegExp(`<a href="/events/\\?date=${day}">`);
    expect(month.text).toMatch(cell);
    expect(month.text).toContain(`href="${new URL(first.url).pathname}"`);

    const category = first.categories[0];
    const inCategory = await rest(env, `/events?categories=${category.slug}&per_page=50`);
    const filtered = await fetchPage(env, `/events/?category=${category.slug}`);
    expect(titles(filtered.text)).toEqual(
      inCategory.events.slice(0, 10).map((e: any) => textOf(e.title)),
    );
    expect(filtered.text).toContain(`<option value="${category.slug}" selected>`);
    const tagged = events.find((e: any) => e.tags.length);
    const tag = tagged.tags[0];
    const withTag = await rest(env, `/events?tags=${tag.slug}&per_page=50`);
    const tagPage = await fetchPage(env, `/events/?tag=${tag.slug}`);
    expect(titles(tagPage.text)).toEqual(
      withTag.events.slice(0, 10).map((e: any) => textOf(e.title)),
    );
  });

  it('answers unknown slugs with a 404 HTML page', async () => {
    for (const target of [
      '/event/no-such-slug/',
      '/venue/no-such-slug/',
      '/organizer/no-such-slug/',
      '/events/category/no-such-slug/',
      '/tag/no-such-slug/',
      '/event/%E0%A4%A/',
    ]) {
      const page = await fetchPage(env, target);
      expect({ target, status: page.status }).toEqual({ target, status: 404 });
      if (target.includes('%E0')) continue; // an undecodable slug is not a page at all
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(h1(page.text)).toBe('Page not found');
      expect(page.text).toContain('<meta name="robots" content="noindex">');
    }
  });
});
