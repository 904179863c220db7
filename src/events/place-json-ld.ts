import type { Config } from '../config';
import type { OrganizerRow, VenueRow } from '../db';
import { pageUrl, renderDescription, renderTitle, renderedText } from '../posts';

/**
 * schema.org descriptions of venues (Place) and organizers (Person). They carry no `@context`:
 * they are embedded in an event's JSON-LD, and a venue's or organizer's single read shows them
 * as they are, like the reference.
 */

export type JsonLd = Record<string, unknown>;

const US_COUNTRIES = new Set(['', 'US', 'United States']);

/**
 * The venue's state/province: the stored `stateprovince`, else `state` for US (or unknown)
 * countries and `province` elsewhere. The one home of this rule: the `stateprovince` field and
 * the JSON-LD `addressRegion` both use it.
 */
export function stateProvinceOf(
  venue: Pick<VenueRow, 'stateprovince' | 'state' | 'province' | 'country'>,
): string {
  if (venue.stateprovince !== '') return venue.stateprovince;
  return US_COUNTRIES.has(venue.country.trim()) ? venue.state : venue.province;
}

/**
 * JSON-LD text is plain (schema.org consumers do not render HTML), with the typography of the
 * rendered name and description the REST body carries.
 */
export function nameText(name: string): string {
  return renderedText(renderTitle(name));
}

function descriptionText(html: string): string {
  return renderedText(renderDescription(html));
}

/**
 * The document without its empty values ('', null, undefined), in its key order, as the
 * reference's generator drops them.
 */
export function compact(doc: JsonLd): JsonLd {
  const out: JsonLd = {};
  for (const key in doc) {
    const value = doc[key];
    if (value !== '' && value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

export function venueJsonLd(config: Config, venue: VenueRow): JsonLd {
  const address = compact({
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: stateProvinceOf(venue),
    postalCode: venue.zip,
    addressCountry: venue.country,
  });
  const hasGeo = venue.geo_lat !== null && venue.geo_lng !== null;
  return compact({
    '@type': 'Place',
    name: nameText(venue.title),
    description: descriptionText(venue.description),
    url: pageUrl(config, 'venue', venue.slug),
    address: Object.keys(address).length ? { '@type': 'PostalAddress', ...address } : null,
    geo: hasGeo
      ? { '@type': 'GeoCoordinates', latitude: venue.geo_lat, longitude: venue.geo_lng }
      : null,
    telephone: venue.phone,
    sameAs: venue.website,
  });
}

/** A Person; the e-mail address is given as stored (the reference obfuscates it; we don't). */
export function organizerJsonLd(_config: Config, organizer: OrganizerRow): JsonLd {
  return compact({
    '@type': 'Person',
    name: nameText(organizer.title),
    description: descriptionText(organizer.description),
    url: organizer.website,
    telephone: organizer.phone,
    email: organizer.email,
    sameAs: organizer.website,
  });
}
