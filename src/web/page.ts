import type { Config } from '../config';
import { NAMESPACE } from '../lib';

/**
 * What a page handler answers: a template, its data and the page's head (title, canonical
 * link, Open Graph and Twitter card meta, JSON-LD). `plugin.ts` renders it inside the layout.
 */

export type JsonLdDoc = Record<string, unknown>;

export interface PageMeta {
  /** The page's own title (the layout adds the site name). */
  title: string;
  /** One or two sentences: `<meta name="description">`, `og:description`. */
  description: string;
  /** Absolute canonical address (`SITE_URL` + path). */
  canonical: string;
  /** `og:type`: `website`, or `article` for an event (Open Graph has no event type). */
  ogType: 'website' | 'article' | 'profile';
  image?: string;
  /** schema.org documents embedded as `<script type="application/ld+json">`. */
  jsonLd?: JsonLdDoc[];
  /** `noindex`: error pages, filtered views, password forms. */
  noindex?: boolean;
}

/** How a page may be cached: `public` for anonymous views, `none` for anything protected. */
export type Caching = 'public' | 'private' | 'none';

export interface Page {
  status: number;
  template: string;
  data: Record<string, unknown>;
  meta: PageMeta;
  caching?: Caching;
}

/** The site-wide links every page shows (header, footer, start page). */
export interface SiteLinks {
  name: string;
  home: string;
  events: string;
  graphql: string;
  restIndex: string;
  openapi: string;
  ics: string;
  stylesheet: string;
}

/** Root-relative form of an address on this site, so links work behind any host name. */
export function local(config: Config, url: string): string {
  const origin = new URL(config.siteUrl).origin;
  return url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
}

/** Path of this site: `/cal/events/` when SITE_URL has a path, else `/events/`. */
export function sitePath(config: Config, path: string): string {
  const base = new URL(config.siteUrl).pathname.replace(/\/+$/, '');
  return `${base}/${path}`;
}

export function siteLinks(config: Config): SiteLinks {
  const api = `${config.apiRoot}/${NAMESPACE}`;
  return {
    name: `Events at ${new URL(config.siteUrl).host}`,
    home: sitePath(config, ''),
    events: sitePath(config, 'events/'),
    graphql: '/graphql',
    // `GET {api_root}/` answers the REST index; with an empty API root, the namespace's.
    restIndex: config.apiRoot ? `${config.apiRoot}/` : `${api}/`,
    openapi: `${api}/doc`,
    ics: `${api}/events.ics`,
    stylesheet: sitePath(config, 'assets/calendar.css'),
  };
}
