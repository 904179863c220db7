import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { withinBudget, type AppContext } from '../context';
import { textStream } from '../feeds/stream';
import { etagOf, fixedFileResponse, matchesEtag, type FixedFile } from '../http/etag';
import { requestInfo, requestLog, type OnRequestPayload } from '../http/request-info';
import { requestTimeout, withTimeout } from '../http/timeout';
import { DomainError, invalid } from '../lib';
import { readBody } from '../rest/params';
import { errorPage, failureOf } from './pages/errors';
import { calendarPage, calendarQuery } from './pages/calendar';
import { eventPage } from './pages/event';
import { homePage } from './pages/home';
import { organizerPage, venuePage } from './pages/places';
import { termPage } from './pages/terms';
import type { Caching, Page } from './page';
import { pageContext, type GetEnveloped } from './request-context';
import { matchRoute, ROUTE_LABELS, type Route } from './routes';
import {
  fullSitemap,
  robotsTxt,
  sitemapCounts,
  sitemapFiles,
  sitemapIndex,
  sitemapContext,
  sitemapPart,
  SITEMAP_MAX_URLS,
} from './sitemap';
import { renderPage } from './view';

/**
 * The public pages (docs/web.md): server-rendered HTML at every address the API's `url` fields
 * name, the start page at `/`, the calendar at `/events/` (but `/events/?ical=1`, which
 * src/feeds answers), `/sitemap.xml`, `/robots.txt` and the one style sheet. No JavaScript.
 *
 * Each page reads through the domains' doors with the request's own context (`request-context`),
 * inside the request's runtime budget and REQUEST_TIMEOUT_MS, like an API request: what a caller
 * may not read through the API is a 404 page here. Pages carry an ETag (304 on If-None-Match)
 * and Cache-Control; their Content-Security-Policy (set in `onResponse`, after the HTTP layer's
 * defaults) allows this origin's style sheet, images and form posts, and no script at all: the
 * JSON-LD blocks are data, which CSP does not govern.
 */

export const STATIC_DIR = path.join(__dirname, 'static');

export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' https: http: data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The fixed paths the pages answer (for the metrics' `route` label). */
export const WEB_PATHS = ['/', '/events/', '/sitemap.xml', '/robots.txt', '/assets/calendar.css'];

const HTML = 'text/html; charset=utf-8';
const CACHE: Record<Caching, string> = {
  public: 'public, max-age=60',
  private: 'private, no-cache',
  none: 'no-store',
};

function loadStylesheet(): FixedFile {
  const location = path.join(STATIC_DIR, 'calendar.css');
  let body: Buffer;
  try {
    body = fs.readFileSync(location);
  } catch {
    throw new Error(
      `The web pages' style sheet ${location} is missing: build with \`npm run build\`, which copies src/web/static.`,
    );
  }
  return { body, etag: etagOf(body), contentType: 'text/css; charset=utf-8' };
}

/** `page=` of a paged view: a positive integer, else a 400 page. */
function pageNumber(url: URL): number {
  const raw = url.searchParams.get('page');
  if (raw === null || raw === '') return 1;
  if (!/^[1-9]\d{0,5}$/.test(raw)) throw invalid('page', 'must be a positive integer');
  return Number(raw);
}

/** The caller's password guess, from the form's urlencoded body. */
async function passwordOf(request: Request, config: Config): Promise<string> {
  const body = await readBody(request, config.maxBodyBytes);
  return new URLSearchParams(body).get('password') ?? '';
}

async function pageFor(route: Route, ctx: AppContext, request: Request, url: URL): Promise<Page> {
  switch (route.kind) {
    case 'home':
      return homePage(ctx);
    case 'calendar':
      return calendarPage(ctx, calendarQuery(url, pageNumber(url)));
    case 'event': {
      const post = request.method.toUpperCase() === 'POST';
      return eventPage(ctx, route.slug, post ? await passwordOf(request, ctx.config) : null);
    }
    case 'venue':
      return venuePage(ctx, route.slug, pageNumber(url));
    case 'organizer':
      return organizerPage(ctx, route.slug, pageNumber(url));
    case 'category':
    case 'tag':
      return termPage(ctx, route.kind, route.slug, pageNumber(url));
    default:
      throw new Error(`not a page: ${route.kind}`);
  }
}

export function useWebPage(config: Config): Plugin {
  const stylesheet = loadStylesheet();
  const answered = new WeakSet<Request>();
  let getEnveloped: GetEnveloped | undefined;

  function html(
    R: typeof Response,
    request: Request,
    status: number,
    body: string,
    caching: Caching,
  ): Response {
    const etag = etagOf(body);
    const headers: Record<string, string> = {
      'Content-Type': HTML,
      'Cache-Control': CACHE[caching],
      Vary: 'Authorization',
      ETag: etag,
    };
    const method = request.method.toUpperCase();
    if (
      status === 200 &&
      method !== 'POST' &&
      matchesEtag(request.headers.get('if-none-match'), etag)
    ) {
      return new R(null, { status: 304, headers });
    }
    return new R(method === 'HEAD' ? null : body, {
      status,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    });
  }

  /** A page from a thrown error: 404 for anything the caller may not read, as the API. */
  function failure(R: typeof Response, request: Request, url: URL, thrown: unknown): Response {
    const found = failureOf(thrown);
    if (!found) requestLog()?.error({ err: thrown }, 'page failed');
    else if (found.code === 'SERVICE_UNAVAILABLE' || found.code === 'TOO_MANY_REQUESTS') {
      requestInfo(request).retryAfter = found.retryAfter ?? 1;
    }
    const page = errorPage(`${new URL(config.siteUrl).origin}${url.pathname}`, found);
    return html(R, request, page.status, renderPage(config, page), 'none');
  }

  async function sitemap(
    route: Extract<Route, { kind: 'sitemap' | 'sitemap-part' }>,
    ctx: AppContext,
    head: boolean,
    fetchAPI: { Response: typeof Response; ReadableStream: typeof ReadableStream },
  ): Promise<Response> {
    const headers = {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    };
    const reader = sitemapContext(ctx);
    let chunks: AsyncGenerator<string>;
    if (route.kind === 'sitemap') {
      const counts = await sitemapCounts(reader);
      const total = 2 + Object.values(counts).reduce((a, b) => a + b, 0);
      if (total > SITEMAP_MAX_URLS) {
        const index = sitemapIndex(reader, sitemapFiles(counts));
        return new fetchAPI.Response(head ? null : index, { headers });
      }
      chunks = fullSitemap(reader);
    } else {
      const counts = route.part === 'pages' ? null : await sitemapCounts(reader);
      const files = counts
        ? Math.ceil(counts[route.part as keyof typeof counts] / SITEMAP_MAX_URLS)
        : 1;
      if (route.n > files) throw new DomainError('NOT_FOUND', 'not_found', 'No such sitemap.');
      chunks = sitemapPart(reader, route.part, route.n);
    }
    if (head) {
      await chunks.return(undefined);
      return new fetchAPI.Response(null, { headers });
    }
    return new fetchAPI.Response(textStream(fetchAPI.ReadableStream, chunks, 'sitemap'), {
      headers,
    });
  }

  async function serve(
    { request, url, fetchAPI, endResponse, serverContext }: OnRequestPayload,
    route: Route,
  ): Promise<void> {
    const method = request.method.toUpperCase();
    // Calendar apps' feed address belongs to src/feeds; every other /events/ is the page.
    if (route.kind === 'calendar' && url.searchParams.get('ical') === '1') return;
    const post = method === 'POST' && route.kind === 'event';
    if (method !== 'GET' && method !== 'HEAD' && !post) return;
    requestInfo(request).route = ROUTE_LABELS[route.kind];
    answered.add(request);
    const R = fetchAPI.Response;

    if (route.kind === 'stylesheet') {
      endResponse(fixedFileResponse(R, request, stylesheet));
      return;
    }

    try {
      const ctx = await pageContext(
        getEnveloped,
        request,
        serverContext as Record<string, unknown>,
      );
      if (route.kind === 'robots') {
        endResponse(
          new R(method === 'HEAD' ? null : robotsTxt(ctx), {
            headers: {
              'Content-Type': 'text/plain; charset=utf-8',
              'Cache-Control': CACHE.public,
            },
          }),
        );
        return;
      }
      if (route.kind === 'sitemap' || route.kind === 'sitemap-part') {
        endResponse(await sitemap(route, ctx, method === 'HEAD', fetchAPI));
        return;
      }
      const ms = config.requestTimeoutMs;
      const page = await withTimeout(
        withinBudget(ctx.budget, () => pageFor(route, ctx, request, url)),
        ms,
        () => requestTimeout(ms),
      );
      const caching: Caching =
        page.caching === 'none' || post
          ? 'none'
          : ctx.viewer.user !== null
            ? 'private'
            : (page.caching ?? 'public');
      endResponse(html(R, request, page.status, renderPage(config, page), caching));
    } catch (error) {
      endResponse(failure(R, request, url, error));
    }
  }

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped as unknown as GetEnveloped;
    },
    // Synchronous on every other path (OnRequestPayload).
    onRequest(payload) {
      const route = matchRoute(config, payload.url.pathname);
      return route ? serve(payload, route) : undefined;
    },
    onResponse({ request, response, setResponse, fetchAPI }) {
      if (!answered.has(request)) return;
      try {
        response.headers.set('Content-Security-Policy', PAGE_CSP);
      } catch {
        const copy = new fetchAPI.Response(response.body, response);
        copy.headers.set('Content-Security-Policy', PAGE_CSP);
        setResponse(copy);
      }
    },
  };
}
