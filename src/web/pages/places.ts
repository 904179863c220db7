import type { AppContext } from '../../context';
import type { OrganizerRow, VenueRow } from '../../db';
import { organizerJsonLd, stateProvinceOf, venueJsonLd } from '../../events';
import { sanitizeRichText } from '../../lib';
import { readOrganizer, readVenue } from '../../places';
import { pageUrl, renderDescription, renderedText } from '../../posts';
import { addressLine, mapLink } from '../format';
import type { Page } from '../page';
import { eventPage as eventsPage, plainTitle } from './summaries';

/**
 * `/venue/<slug>/` and `/organizer/<slug>/`: the single read of the API (hidden records are not
 * found), its details, and its upcoming events as the events list filtered by it, paged.
 */

const SCHEMA = 'http://schema.org';

function description(row: VenueRow | OrganizerRow): { html: string; text: string } {
  const rendered = renderDescription(row.description);
  return { html: sanitizeRichText(rendered), text: renderedText(rendered).slice(0, 300) };
}

export async function venuePage(ctx: AppContext, slug: string, page: number): Promise<Page> {
  const venue = await readVenue(ctx, slug);
  const events = await eventsPage(ctx, { venue: [venue.id] }, page);
  const name = plainTitle(venue.title);
  const address = addressLine(venue, stateProvinceOf(venue));
  const about = description(venue);
  return {
    status: 200,
    template: 'venue',
    data: {
      venue: {
        name,
        address,
        map: mapLink(venue, address),
        phone: venue.phone,
        website: venue.website,
        description: about.html,
      },
      events,
    },
    meta: {
      title: name,
      description: about.text || (address ? `${name}, ${address}` : name),
      canonical: pageUrl(ctx.config, 'venue', venue.slug),
      ogType: 'website',
      jsonLd: [{ '@context': SCHEMA, ...venueJsonLd(ctx.config, venue) }],
      noindex: venue.status !== 'publish' || page > 1,
    },
    caching: venue.status === 'publish' ? 'public' : 'none',
  };
}

export async function organizerPage(ctx: AppContext, slug: string, page: number): Promise<Page> {
  const organizer = await readOrganizer(ctx, slug);
  const events = await eventsPage(ctx, { organizer: [organizer.id] }, page);
  const name = plainTitle(organizer.title);
  const about = description(organizer);
  const url = pageUrl(ctx.config, 'organizer', organizer.slug);
  return {
    status: 200,
    template: 'organizer',
    data: {
      organizer: {
        name,
        phone: organizer.phone,
        email: organizer.email,
        website: organizer.website,
        description: about.html,
      },
      events,
    },
    meta: {
      title: name,
      description: about.text || `Events organised by ${name}.`,
      canonical: url,
      ogType: 'profile',
      // The API describes an organizer as a Person inside events; its own page, as the
      // organisation it usually is, with this page as its address.
      jsonLd: [
        {
          '@context': SCHEMA,
          ...organizerJsonLd(ctx.config, organizer),
          '@type': 'Organization',
          url,
        },
      ],
      noindex: organizer.status !== 'publish' || page > 1,
    },
    caching: organizer.status === 'publish' ? 'public' : 'none',
  };
}
