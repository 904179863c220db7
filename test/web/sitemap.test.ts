import { cli } from '../transfer/import-support';
import { describeEachDb } from '../support/harness';
import {
  SITEMAP_PAGE,
  sitemapContext,
  sitemapFiles,
  sitemapIndex,
  sitemapPart,
} from '../../src/web/sitemap';
import { API, fetchPage, rest } from './support';

/**
 * `/sitemap.xml` and `/robots.txt` (issue 22, item 2): every public page and nothing hidden,
 * read in keyset pages (the demo here is larger than one read page, so the walk continues past
 * a page boundary), and a sitemap index once there are more than 50,000 addresses.
 */

jest.setTimeout(180_000);

const CREATE = `mutation ($input: EventInput!) { create_event(input: $input) { id slug } }`;

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) =>
    m[1]!.replace(/&amp;/g, '&').replace(/&apos;/g, "'"),
  );
}

async function text(chunks: AsyncGenerator<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

describeEachDb('the sitemap and robots.txt', (env) => {
  let draftSlug = '';

  beforeAll(async () => {
    const seeded = await cli(env, 'seed:demo', '--events', String(SITEMAP_PAGE + 120));
    if (seeded.status !== 0) throw new Error(seeded.stderr);
    const made = await env.ok(
      CREATE,
      {
        input: {
          title: 'Unlisted Draft',
          status: 'draft',
          start_date: '2026-12-05 19:00:00',
          end_date: '2026-12-05 22:00:00',
        },
      },
      { as: 'administrator' },
    );
    draftSlug = made.create_event.slug;
  });

  it('lists every public page once, and nothing hidden, even when an administrator asks', async () => {
    const got = await fetchPage(env, '/sitemap.xml', {
      headers: await env.authHeaders('administrator'),
    });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(got.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns=/);
    const urls = locs(got.text);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls).toContain('http://calendar.test/');
    expect(urls).toContain('http://calendar.test/events/');
    expect(urls.some((u) => u.includes(draftSlug))).toBe(false);

    const events = urls.filter((u) => u.includes('/event/'));
    // Events "hidden from listings" keep their page but stay out of every listing, this one too.
    const published = await env
      .db('events')
      .where({ status: 'publish', hide_from_listings: false })
      .count({ n: '*' });
    expect(events).toHaveLength(Number(published[0]!.n));
    expect(events.length).toBeGreaterThan(SITEMAP_PAGE);

    // Every record kind, as the API's `url` fields name them.
    const { venues } = await rest(env, '/venues?per_page=50');
    const { organizers } = await rest(env, '/organizers?per_page=50');
    const { categories } = await rest(env, '/categories?per_page=50&hide_empty=false');
    const { tags } = await rest(env, '/tags?per_page=50&hide_empty=false');
    for (const record of [...venues, ...organizers, ...categories, ...tags]) {
      expect(urls).toContain(record.url);
    }
    // A sample of the addresses answers.
    for (const url of urls.filter((_u, i) => i % 97 === 0)) {
      expect({ url, status: (await fetchPage(env, url)).status }).toEqual({ url, status: 200 });
    }
  });

  it('splits into files of an index: each part a disjoint slice, together every address', async () => {
    const ctx = sitemapContext(await env.context('anonymous'));
    const first = locs(await text(sitemapPart(ctx, 'events', 1, SITEMAP_PAGE)));
    const second = locs(await text(sitemapPart(ctx, 'events', 2, SITEMAP_PAGE)));
    expect(first).toHaveLength(SITEMAP_PAGE);
    expect(second.length).toBeGreaterThan(0);
    expect(first.filter((u) => second.includes(u))).toEqual([]);
    const whole = locs((await fetchPage(env, '/sitemap.xml')).text).filter((u) =>
      u.includes('/event/'),
    );
    expect([...first, ...second].sort()).toEqual([...whole].sort());

    expect(
      sitemapFiles({ events: 120_000, venues: 10, organizers: 0, categories: 5, tags: 50_001 }),
    ).toEqual([
      'sitemap-pages-1.xml',
      'sitemap-events-1.xml',
      'sitemap-events-2.xml',
      'sitemap-events-3.xml',
      'sitemap-venues-1.xml',
      'sitemap-categories-1.xml',
      'sitemap-tags-1.xml',
      'sitemap-tags-2.xml',
    ]);
    expect(locs(sitemapIndex(ctx, ['sitemap-pages-1.xml']))).toEqual([
      'http://calendar.test/sitemap-pages-1.xml',
    ]);
    // The files are served; one past the last is a 404.
    const part = await fetchPage(env, '/sitemap-events-1.xml');
    expect(locs(part.text).length).toBe(whole.length);
    expect((await fetchPage(env, '/sitemap-events-2.xml')).status).toBe(404);
    expect(locs((await fetchPage(env, '/sitemap-pages-1.xml')).text)).toEqual([
      'http://calendar.test/',
      'http://calendar.test/events/',
    ]);
  });

  it('answers HEAD without writing the sitemap', async () => {
    const head = await fetchPage(env, '/sitemap.xml', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(head.text).toBe('');
  });

  it('names the sitemap in robots.txt and keeps crawlers off the API', async () => {
    const robots = await fetchPage(env, '/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(robots.text).toContain('Sitemap: http://calendar.test/sitemap.xml');
    expect(robots.text).toContain('Disallow: /wp-json/');
    expect(API.startsWith('/wp-json/')).toBe(true);
  });
});
