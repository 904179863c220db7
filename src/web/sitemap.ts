import { setImmediate as nextTurn } from 'node:timers/promises';
import { createContext, type AppContext } from '../context';
import { listEvents, listEventsAfter, seekAfter, type EventListArgs } from '../events';
import { listOrganizers, listVenues } from '../places';
import { pageUrl } from '../posts';
import { listTerms, termUrl } from '../terms';
import { EXPORT_PAGE_SIZE, exportContext } from '../transfer';
import { ANONYMOUS } from '../users';

/**
 * `/sitemap.xml` (sitemaps.org 0.9): every public page — the start page, the calendar, and each
 * published event, venue and organizer, each category and tag — read as an anonymous caller
 * whoever asks, so nothing hidden is ever listed. Up to 50,000 addresses it is one `urlset`;
 * past that, a sitemap index of files of at most 50,000 addresses each
 * (`/sitemap-<kind>-<n>.xml`). Files are streamed a page of rows at a time (events by keyset
 * pages, so a deep file costs one OFFSET to find its start, then none), so memory stays bounded
 * by one page whatever the calendar's size.
 */

export const SITEMAP_MAX_URLS = 50_000;
/** Rows per read: the export page size (exportContext lifts the per-page cap to it). */
export const SITEMAP_PAGE = EXPORT_PAGE_SIZE;

export const SITEMAP_KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
export type SitemapKind = (typeof SITEMAP_KINDS)[number];

/** Every event, past and future, not only the list's default window. */
const ALL_EVENTS: EventListArgs = { start_date: '1900-01-01', end_date: '2999-12-31' };

/**
 * The sitemap's reader: anonymous whoever asks (it lists what anyone may see), with the
 * per-page cap lifted to SITEMAP_PAGE as exports lift it.
 */
export function sitemapContext(ctx: AppContext): AppContext {
  const { config, db, dialect, now } = ctx;
  return exportContext(createContext({ config, db, dialect, now }, ANONYMOUS, ctx.requestId));
}

interface Entry {
  loc: string;
  lastmod?: string;
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** W3C datetime of a stored UTC time. */
function lastmod(utcSql: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(utcSql)
    ? `${utcSql.replace(' ', 'T')}Z`
    : undefined;
}

function urlXml(entry: Entry): string {
  const mod = entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : '';
  return `<url><loc>${escapeXml(entry.loc)}</loc>${mod}</url>\n`;
}

/** How many records of each kind the sitemap lists. */
export async function sitemapCounts(ctx: AppContext): Promise<Record<SitemapKind, number>> {
  const one = { page: 1, per_page: 1 };
  const [events, venues, organizers, categories, tags] = await Promise.all([
    listEvents(ctx, { ...ALL_EVENTS, ...one }).then((l) => l.total),
    listVenues(ctx, one).then((l) => l.total),
    listOrganizers(ctx, one).then((l) => l.total),
    listTerms(ctx, 'category', { ...one, hide_empty: false }).then((l) => l.total),
    listTerms(ctx, 'tag', { ...one, hide_empty: false }).then((l) => l.total),
  ]);
  return { events, venues, organizers, categories, tags };
}

/** The entries of one kind, from `skip` (a multiple of SITEMAP_PAGE), at most `limit` of them. */
async function* entries(
  ctx: AppContext,
  kind: SitemapKind,
  skip: number,
  limit: number,
): AsyncGenerator<Entry[]> {
  let sent = 0;
  let page = skip / SITEMAP_PAGE + 1;
  if (kind === 'events') {
    ctx.resetLoaders();
    let rows = (await listEvents(ctx, { ...ALL_EVENTS, page, per_page: SITEMAP_PAGE })).events;
    while (rows.length) {
      const chunk = rows.slice(0, limit - sent);
      yield chunk.map((r) => ({
        loc: pageUrl(ctx.config, 'event', r.slug),
        lastmod: lastmod(r.modified_utc),
      }));
      sent += chunk.length;
      const last = rows[rows.length - 1];
      if (sent >= limit || rows.length < SITEMAP_PAGE || !last) return;
      await nextTurn();
      ctx.resetLoaders();
      rows = await listEventsAfter(ctx, ALL_EVENTS, seekAfter(last), SITEMAP_PAGE);
    }
    return;
  }
  for (;;) {
    ctx.resetLoaders();
    const paged = { page, per_page: SITEMAP_PAGE };
    let batch: Entry[];
    let total: number;
    if (kind === 'venues' || kind === 'organizers') {
      const list =
        kind === 'venues' ? await listVenues(ctx, paged) : await listOrganizers(ctx, paged);
      const rows = 'venues' in list ? list.venues : list.organizers;
      total = list.total;
      batch = rows.map((r) => ({
        loc: pageUrl(ctx.config, kind === 'venues' ? 'venue' : 'organizer', r.slug),
        lastmod: lastmod(r.modified_utc),
      }));
    } else {
      const taxonomy = kind === 'categories' ? 'category' : 'tag';
      const list = await listTerms(ctx, taxonomy, { ...paged, hide_empty: false });
      total = list.total;
      batch = await Promise.all(list.rows.map(async (t) => ({ loc: await termUrl(ctx, t) })));
    }
    const chunk = batch.slice(0, limit - sent);
    if (chunk.length) yield chunk;
    sent += chunk.length;
    if (sent >= limit || page * SITEMAP_PAGE >= total) return;
    page += 1;
    await nextTurn();
  }
}

const URLSET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

/** The whole site in one `urlset` (at most SITEMAP_MAX_URLS addresses). */
export async function* fullSitemap(ctx: AppContext): AsyncGenerator<string> {
  yield URLSET_OPEN;
  yield urlXml({ loc: `${ctx.config.siteUrl}/` });
  yield urlXml({ loc: `${ctx.config.siteUrl}/events/` });
  for (const kind of SITEMAP_KINDS) {
    for await (const batch of entries(ctx, kind, 0, SITEMAP_MAX_URLS)) {
      yield batch.map(urlXml).join('');
    }
  }
  yield '</urlset>\n';
}

/** The names of the files of a sitemap index, for these counts. */
export function sitemapFiles(counts: Record<SitemapKind, number>): string[] {
  const files = ['sitemap-pages-1.xml'];
  for (const kind of SITEMAP_KINDS) {
    const n = Math.ceil(counts[kind] / SITEMAP_MAX_URLS);
    for (let i = 1; i <= n; i++) files.push(`sitemap-${kind}-${i}.xml`);
  }
  return files;
}

export function sitemapIndex(ctx: AppContext, files: string[]): string {
  const items = files
    .map((f) => `<sitemap><loc>${escapeXml(`${ctx.config.siteUrl}/${f}`)}</loc></sitemap>\n`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}</sitemapindex>\n`;
}

/** One file of the index: `pages` (start page, calendar) or the n-th of a kind. */
export async function* sitemapPart(
  ctx: AppContext,
  kind: SitemapKind | 'pages',
  n: number,
  /** Addresses per file (a multiple of the read page size; smaller in tests). */
  perFile = SITEMAP_MAX_URLS,
): AsyncGenerator<string> {
  yield URLSET_OPEN;
  if (kind === 'pages') {
    yield urlXml({ loc: `${ctx.config.siteUrl}/` });
    yield urlXml({ loc: `${ctx.config.siteUrl}/events/` });
  } else {
    const skip = (n - 1) * perFile;
    for await (const batch of entries(ctx, kind, skip, perFile)) {
      yield batch.map(urlXml).join('');
    }
  }
  yield '</urlset>\n';
}

export function robotsTxt(ctx: AppContext): string {
  return `User-agent: *\nAllow: /\nDisallow: ${ctx.config.apiRoot || '/calendar'}/\nDisallow: /graphql\n\nSitemap: ${ctx.config.siteUrl}/sitemap.xml\n`;
}
