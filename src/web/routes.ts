import type { Config } from '../config';
import { sitePath } from '../lib';
import { SITEMAP_KINDS, type SitemapKind } from './sitemap';

/**
 * The public addresses the pages answer, as the API's `url` fields spell them
 * (`src/posts/page-url.ts`, `termUrl` in src/terms): matched below SITE_URL's path, with or
 * without the trailing slash. Slugs are percent-decoded; an undecodable one matches nothing.
 */

export type Route =
  | { kind: 'home' }
  | { kind: 'calendar' }
  | { kind: 'event' | 'venue' | 'organizer' | 'category' | 'tag'; slug: string }
  | { kind: 'sitemap' }
  | { kind: 'sitemap-part'; part: SitemapKind | 'pages'; n: number }
  | { kind: 'robots' }
  | { kind: 'stylesheet' };

/** Route labels for the access log and metrics (`route`): patterns, never slugs. */
export const ROUTE_LABELS: Record<Route['kind'], string> = {
  home: '/',
  calendar: '/events/',
  event: '/event/<slug>/',
  venue: '/venue/<slug>/',
  organizer: '/organizer/<slug>/',
  category: '/events/category/<slug>/',
  tag: '/tag/<slug>/',
  sitemap: '/sitemap.xml',
  'sitemap-part': '/sitemap-<kind>-<n>.xml',
  robots: '/robots.txt',
  stylesheet: '/assets/calendar.css',
};

const SINGLE = /^\/(event|venue|organizer|tag)\/([^/]+)\/?$/;
const CATEGORY = /^\/events\/category\/((?:[^/]+\/)*[^/]+)\/?$/;
const PART = /^\/sitemap-([a-z]+)-([1-9]\d{0,5})\.xml$/;

function decoded(segment: string): string | null {
  try {
    const slug = decodeURIComponent(segment);
    return slug.trim() === '' ? null : slug;
  } catch {
    return null;
  }
}

export function matchRoute(config: Config, pathname: string): Route | null {
  const base = sitePath(config.siteUrl);
  let path = pathname;
  if (base) {
    if (path === base) path = '/';
    else if (path.startsWith(`${base}/`)) path = path.slice(base.length);
    else return null;
  }
  switch (path) {
    case '/':
      return { kind: 'home' };
    case '/events':
    case '/events/':
      return { kind: 'calendar' };
    case '/sitemap.xml':
      return { kind: 'sitemap' };
    case '/robots.txt':
      return { kind: 'robots' };
    case '/assets/calendar.css':
      return { kind: 'stylesheet' };
  }
  const single = SINGLE.exec(path);
  if (single) {
    const slug = decoded(single[2]!);
    return slug === null ? null : { kind: single[1] as 'event', slug };
  }
  const category = CATEGORY.exec(path);
  if (category) {
    // Child categories nest their parents' slugs: the last one names the category.
    const slug = decoded(category[1]!.split('/').pop()!);
    return slug === null ? null : { kind: 'category', slug };
  }
  const part = PART.exec(path);
  if (part && (part[1] === 'pages' || (SITEMAP_KINDS as readonly string[]).includes(part[1]!))) {
    return { kind: 'sitemap-part', part: part[1] as SitemapKind, n: Number(part[2]) };
  }
  return null;
}
