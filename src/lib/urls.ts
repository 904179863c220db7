import type { Config } from '../config';

/**
 * Builders of every public and REST address the API returns. Each answers one flat string
 * (`flat`): a body holds a few of them per record, and V8's fast `JSON.stringify` (Node 26)
 * serialises only flat strings; one rope (`a + b` or a template literal of 13 characters or
 * more) sends the whole body down the slow path, ~2.5 times as slow (docs/performance.md).
 */

/** The parts joined into one flat string, where `+` would make a rope (two parts or more). */
export function flat(...parts: string[]): string {
  return parts.join('');
}

/**
 * The same text as one flat, sequential string, whatever it was: a rope (a library's `a + b`,
 * which a one-part `join` returns as it is), a slice (a `trim`'s or a `slice`'s result) or flat
 * already. A JSON round trip copies any string exactly, lone surrogates included.
 */
export function flatText(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

export const NAMESPACE = 'calendar/events/v1';

/**
 * `{site}{api_root}/<namespace>`. REST addresses in responses use the namespace the request
 * came in on (`tribe/events/v1` for a client of an alias): the REST adapter puts it in the
 * context as `restNamespace`; everything else gets the canonical one.
 */
export function namespaceUrl(config: Config, namespace: string = NAMESPACE): string {
  // Every REST address of a body starts with it (several per listed event): built once.
  const byRoot = siteParts(config.siteUrl).namespaceUrls;
  let urls = byRoot.get(config.apiRoot);
  if (urls === undefined) {
    if (byRoot.size >= FEW) byRoot.clear();
    byRoot.set(config.apiRoot, (urls = new Map()));
  }
  let url = urls.get(namespace);
  if (url === undefined) {
    url = flat(config.siteUrl, config.apiRoot, '/', namespace);
    if (urls.size >= FEW) urls.clear();
    urls.set(namespace, url);
  }
  return url;
}

export function restUrl(config: Config, path: string, namespace: string = NAMESPACE): string {
  return flat(namespaceUrl(config, namespace), '/', path);
}

export function publicUrl(config: Config, path: string): string {
  return flat(config.siteUrl, '/', path);
}

/** `<site host and path>?id=<id>`: unique across sites, like the reference's global ids. */
export function globalId(config: Config, id: number): string {
  return flat(globalIdPrefix(config.siteUrl), '?id=', String(id));
}

interface SiteParts {
  /** The site's path without trailing slashes: '' at the root of its host. */
  path: string;
  /** `<host><path>`, the global ids' prefix. */
  idPrefix: string;
  /** `namespaceUrl`s by API root, then namespace (a configuration's canonical one and aliases). */
  namespaceUrls: Map<string, Map<string, string>>;
}

/** Bound of the per-site caches: API roots and namespaces come from configurations, a few. */
const FEW = 16;

// Parsing the site URL per event was measurable in lists (and per request, for the web pages'
// routes); the site URL is fixed per config.
const sites = new Map<string, SiteParts>();

function siteParts(siteUrl: string): SiteParts {
  let parts = sites.get(siteUrl);
  if (parts === undefined) {
    const site = new URL(siteUrl);
    const path = site.pathname.replace(/\/+$/, '');
    parts = { path, idPrefix: `${site.host}${path}`, namespaceUrls: new Map() };
    if (sites.size >= 100) sites.clear();
    sites.set(siteUrl, parts);
  }
  return parts;
}

function globalIdPrefix(siteUrl: string): string {
  return siteParts(siteUrl).idPrefix;
}

/** The site URL's path without trailing slashes ('' when the site is at its host's root). */
export function sitePath(siteUrl: string): string {
  return siteParts(siteUrl).path;
}

/**
 * Encodes a query for a `rest_url`: like the reference, dates keep their spaces and colons and
 * lists their commas, while characters that would break the URL's structure are escaped.
 */
export function readableQuery(pairs: [string, string][]): string {
  return pairs
    .map(
      ([k, v]) =>
        `${k}=${encodeURIComponent(v).replace(/%20/g, ' ').replace(/%3A/gi, ':').replace(/%2C/gi, ',')}`,
    )
    .join('&');
}

/** Encodes a query for next/previous links: fully encoded, ready to follow. */
export function encodedQuery(pairs: [string, string][]): string {
  return new URLSearchParams(pairs).toString();
}
