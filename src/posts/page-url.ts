import type { Config } from '../config';
import { publicUrl } from '../lib';

/** The records with a public page of their own (categories and tags: `termUrl` in src/terms). */
export type PageKind = 'event' | 'venue' | 'organizer';

/**
 * The public page of an event, venue or organizer, `{site}/<kind>/<slug>/` like the reference's
 * permalinks: one rule for the `url` fields, the JSON-LD and the exports' `url` columns.
 */
export function pageUrl(config: Config, kind: PageKind, slug: string): string {
  return publicUrl(config, `${kind}/${slug}/`);
}
