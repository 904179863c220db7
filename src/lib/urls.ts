import type { Config } from '../config';

/** Builders of every public and REST address the API returns. */

export const NAMESPACE = 'calendar/events/v1';

/**
 * `{site}{api_root}/<namespace>`. REST addresses in responses use the namespace the request
 * came in on (`tribe/events/v1` for a client of an alias): the REST adapter puts it in the
 * context as `restNamespace`; everything else gets the canonical one.
 */
export function namespaceUrl(config: Config, namespace: string = NAMESPACE): string {
  return `${config.siteUrl}${config.apiRoot}/${namespace}`;
}

export function restUrl(config: Config, path: string, namespace: string = NAMESPACE): string {
  return `${namespaceUrl(config, namespace)}/${path}`;
}

export function publicUrl(config: Config, path: string): string {
  return `${config.siteUrl}/${path}`;
}

/** `<site host and path>?id=<id>`: unique across sites, like the reference's global ids. */
export function globalId(config: Config, id: number): string {
  return `${globalIdPrefix(config.siteUrl)}?id=${id}`;
}

// Parsing the site URL per event was measurable in lists; the site URL is fixed per config.
const prefixes = new Map<string, string>();

function globalIdPrefix(siteUrl: string): string {
  let prefix = prefixes.get(siteUrl);
  if (prefix === undefined) {
    const site = new URL(siteUrl);
    const pathPart = site.pathname === '/' ? '' : site.pathname.replace(/\/+$/, '');
    prefix = `${site.host}${pathPart}`;
    if (prefixes.size >= 100) prefixes.clear();
    prefixes.set(siteUrl, prefix);
  }
  return prefix;
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
