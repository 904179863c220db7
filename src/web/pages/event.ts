import type { AppContext } from '../../context';
import type { EventRow } from '../../db';
import { eventJsonLd, formatCost, getEventBySlug, stateProvinceOf } from '../../events';
import { DomainError, restUrl, sanitizeRichText } from '../../lib';
import { canSee, pageUrl, renderDescription, renderExcerpt, renderedText } from '../../posts';
import { addressLine, googleCalendarLink, isoRange, mapLink, whenText } from '../format';
import { local, type Page } from '../page';
import { plainTitle, termLinks } from './summaries';

/**
 * `/event/<slug>/`: one event as the API's single read shows it to the caller
 * (`getEventBySlug`: drafts, pending, private and trashed events are not found for callers who
 * may not read them). A password-protected event answers a form (POSTed back here, checked like
 * the API's `password` argument, guesses throttled alike) and nothing of its content.
 */

function passwordForm(ctx: AppContext, slug: string, wrong: boolean): Page {
  const canonical = pageUrl(ctx.config, 'event', slug);
  return {
    status: wrong ? 403 : 200,
    template: 'password',
    data: { action: local(ctx.config, canonical), wrong },
    meta: {
      title: 'Password protected event',
      description: 'This event is password protected.',
      canonical,
      ogType: 'website',
      noindex: true,
    },
    caching: 'none',
  };
}

export async function eventPage(
  ctx: AppContext,
  slug: string,
  password: string | null,
): Promise<Page> {
  let row: EventRow;
  try {
    row = await getEventBySlug(ctx, slug, password);
  } catch (error) {
    if (error instanceof DomainError && error.reason === 'password_protected') {
      return passwordForm(ctx, slug, password !== null && password !== '');
    }
    throw error;
  }
  const { config } = ctx;
  const [venueRow, { organizers: organizerRows, terms }, image] = await Promise.all([
    row.venue_id === null ? undefined : ctx.loaders.venue.load(row.venue_id),
    ctx.loaders.eventLinks.load(row.id),
    row.image_id === null ? undefined : ctx.loaders.image.load(row.image_id),
  ]);
  const venue = venueRow && canSee(ctx, venueRow) ? venueRow : null;
  const organizers = organizerRows.filter((o) => canSee(ctx, o));
  const title = plainTitle(row.title);
  const url = pageUrl(config, 'event', row.slug);
  const address = venue ? addressLine(venue, stateProvinceOf(venue)) : '';
  const summary = renderedText(
    row.excerpt ? renderExcerpt(row.excerpt) : renderDescription(row.description),
  );
  const { cost } = formatCost(row, {
    symbol: config.currencySymbol,
    position: config.currencyPosition,
  });
  const isProtected = row.password !== '';
  // The API's json_ld is never given for protected events; nor is it here.
  const jsonLd = isProtected
    ? []
    : [
        eventJsonLd(config, row, {
          venue,
          organizer: organizers[0] ?? null,
          image: image ?? null,
        }),
      ];
  const venueName = venue ? plainTitle(venue.title) : '';
  return {
    status: 200,
    template: 'event',
    data: {
      event: {
        title,
        when: whenText(row),
        ...isoRange(row),
        allDay: row.all_day,
        // Rendered as the API's description_rendered, then through the rich-text allowlist.
        description: sanitizeRichText(renderDescription(row.description)),
        cost,
        website: row.website,
        image: image?.url ?? '',
        ics: isProtected ? '' : local(config, restUrl(config, `events/${row.id}.ics`)),
        google: googleCalendarLink(
          row,
          title,
          summary,
          [venueName, address].filter(Boolean).join(', '),
        ),
        categories: await termLinks(
          ctx,
          terms.filter((t) => t.taxonomy === 'category'),
        ),
        tags: await termLinks(
          ctx,
          terms.filter((t) => t.taxonomy === 'tag'),
        ),
      },
      venue: venue && {
        name: venueName,
        url: local(config, pageUrl(config, 'venue', venue.slug)),
        address,
        map: venue.show_map_link || row.show_map_link ? mapLink(venue, address) : '',
        phone: venue.phone,
        website: venue.website,
      },
      organizers: organizers.map((o) => ({
        name: plainTitle(o.title),
        url: local(config, pageUrl(config, 'organizer', o.slug)),
        phone: o.phone,
        email: o.email,
        website: o.website,
      })),
    },
    meta: {
      title,
      description: summary.slice(0, 300),
      canonical: url,
      ogType: 'article',
      image: image?.url,
      jsonLd,
      noindex: isProtected || row.status !== 'publish',
    },
    caching: isProtected || row.status !== 'publish' ? 'none' : 'public',
  };
}
