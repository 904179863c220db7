import type { Config } from '../config';
import { formatCost } from './cost';
import { toIsoWithOffset } from '../lib';
import { pageUrl, renderDescription, renderExcerpt, renderedText } from '../posts';
import { compact, nameText, organizerJsonLd, venueJsonLd, type JsonLd } from './place-json-ld';
import type { EventRow, ImageRow, OrganizerRow, VenueRow } from '../db';

/**
 * The schema.org Event of a single event read (docs/contract.md §4, json_ld), built from our own
 * data.
 */

export interface EventJsonLdParts {
  /** The event's venue when it is visible to the caller. */
  venue: VenueRow | null;
  /** Its first visible organizer (schema.org wants one; the reference shows the first). */
  organizer: OrganizerRow | null;
  image: ImageRow | null;
}

// Common symbols only: an unknown symbol leaves `priceCurrency` out rather than guessing.
const CURRENCY_OF_SYMBOL: Record<string, string> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  CHF: 'CHF',
  C$: 'CAD',
  A$: 'AUD',
};

/** Zone of the stored wall clock: the event's, UTC when it has none or an unusable one. */
function zoneOf(row: EventRow): string {
  return row.timezone || 'UTC';
}

function offers(config: Config, row: EventRow, url: string): JsonLd | null {
  const { cost_details: details } = formatCost(row, {
    symbol: config.currencySymbol,
    position: config.currencyPosition,
  });
  const [lowest] = details.values;
  if (lowest === undefined) return null;
  const price = /^\d/.test(lowest) ? lowest : lowest === 'free' ? '0' : null;
  if (price === null) return null;
  const currency = details.currency_code || CURRENCY_OF_SYMBOL[details.currency_symbol] || '';
  return compact({
    '@type': 'Offer',
    price,
    priceCurrency: currency,
    url,
    category: 'primary',
    availability: 'https://schema.org/InStock',
    validFrom: toIsoWithOffset(row.date_utc, 'UTC'),
  });
}

export function eventJsonLd(config: Config, row: EventRow, parts: EventJsonLdParts): JsonLd {
  const url = pageUrl(config, 'event', row.slug);
  const zone = zoneOf(row);
  return compact({
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: nameText(row.title),
    // The excerpt is the summary; events without one are described by their description.
    description: renderedText(
      row.excerpt ? renderExcerpt(row.excerpt) : renderDescription(row.description),
    ),
    image: parts.image?.url,
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: toIsoWithOffset(row.start_date, zone),
    endDate: toIsoWithOffset(row.end_date, zone),
    location: parts.venue ? venueJsonLd(config, parts.venue) : null,
    organizer: parts.organizer ? organizerJsonLd(config, parts.organizer) : null,
    offers: offers(config, row, url),
  });
}
