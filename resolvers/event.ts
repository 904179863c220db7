import type { AppContext } from '../src/context';
import type { EventResolvers, Resolvers } from '../src/graphql/generated/resolvers-types';
import {
  emptyCostDetails,
  eventJsonLd,
  formatCost,
  getEvent,
  getEventBySlug,
  isRedacted,
  listEvents,
} from '../src/events';
import { dateDetails, globalId, isValidZone, restUrl, zoneAbbr } from '../src/lib';
import type { EventRow, OrganizerRow, TermRow, VenueRow } from '../src/db';
import {
  asSingleRead,
  canSee,
  isSingleRead,
  pageUrl,
  renderDescription,
  renderExcerpt,
  renderTitle,
} from '../src/posts';

/** `events`, `event`, `event_by_slug` and every `Event` field. Rows come from the services. */

/** An `Event` field over its row; `EventResolvers` checks `T` against the SDL where it is used. */
type Field<T> = (row: EventRow, args: unknown, ctx: AppContext) => T | Promise<T>;

/** A field that a password-protected event hides in lists (docs/contract.md §9). */
function guarded<T>(redacted: T, field: Field<T>): Field<T> {
  return (row, args, ctx) => (isRedacted(ctx, row) ? redacted : field(row, args, ctx));
}

function eventUrl(ctx: AppContext, row: EventRow): string {
  return pageUrl(ctx.config, 'event', row.slug);
}

/** Abbreviation at the start instant; fixed offsets (`UTC+5`) have none but their own name. */
function timezoneAbbr(row: EventRow): string {
  if (row.timezone === '') return '';
  if (!isValidZone(row.timezone)) return /^UTC[+-]/i.test(row.timezone) ? row.timezone : '';
  return zoneAbbr(row.timezone, row.utc_start_date);
}

// `cost` and `cost_details` share one formatting per row (rows are per request).
const costs = new WeakMap<EventRow, ReturnType<typeof formatCost>>();

function cost(ctx: AppContext, row: EventRow): ReturnType<typeof formatCost> {
  let formatted = costs.get(row);
  if (!formatted) {
    formatted = formatCost(row, {
      symbol: ctx.config.currencySymbol,
      position: ctx.config.currencyPosition,
    });
    costs.set(row, formatted);
  }
  return formatted;
}

async function terms(ctx: AppContext, row: EventRow, taxonomy: TermRow['taxonomy']) {
  return (await ctx.loaders.eventLinks.load(row.id)).terms.filter((t) => t.taxonomy === taxonomy);
}

/** The venue when there is one the caller may see; in a single read it shows its json_ld. */
async function venue(ctx: AppContext, row: EventRow): Promise<VenueRow | null> {
  if (row.venue_id === null) return null;
  const found = await ctx.loaders.venue.load(row.venue_id);
  if (!found || !canSee(ctx, found)) return null;
  return isSingleRead(row) ? asSingleRead(found) : found;
}

async function organizers(ctx: AppContext, row: EventRow): Promise<OrganizerRow[]> {
  const visible = (await ctx.loaders.eventLinks.load(row.id)).organizers.filter((o) =>
    canSee(ctx, o),
  );
  return isSingleRead(row) ? visible.map((o) => asSingleRead(o)) : visible;
}

const Event: EventResolvers = {
  global_id: (row, _a, ctx) => globalId(ctx.config, row.id),
  global_id_lineage: (row, _a, ctx) => [globalId(ctx.config, row.id)],
  author: (row) => String(row.author_id),
  url: (row, _a, ctx) => eventUrl(ctx, row),
  rest_url: (row, _a, ctx) => restUrl(ctx.config, `events/${row.id}`, ctx.restNamespace),
  title_rendered: (row) => renderTitle(row.title),
  description: guarded('', (row) => row.description),
  description_rendered: guarded('', (row) => renderDescription(row.description)),
  excerpt: guarded('', (row) => row.excerpt),
  excerpt_rendered: guarded('', (row) => renderExcerpt(row.excerpt)),
  image: guarded(null, async (row, _a, ctx) =>
    row.image_id === null ? null : ((await ctx.loaders.image.load(row.image_id)) ?? null),
  ),
  all_day: guarded(null, (row) => row.all_day),
  show_map: guarded(null, (row) => row.show_map),
  show_map_link: guarded(null, (row) => row.show_map_link),
  hide_from_listings: guarded(null, (row) => row.hide_from_listings),
  sticky: guarded(null, (row) => row.sticky),
  featured: guarded(null, (row) => row.featured),
  start_date_details: (row) => dateDetails(row.start_date),
  end_date_details: (row) => dateDetails(row.end_date),
  utc_start_date_details: (row) => dateDetails(row.utc_start_date),
  utc_end_date_details: (row) => dateDetails(row.utc_end_date),
  timezone_abbr: (row) => timezoneAbbr(row),
  cost: guarded('', (row, _a, ctx) => cost(ctx, row).cost),
  cost_details: guarded(emptyCostDetails(), (row, _a, ctx) => cost(ctx, row).cost_details),
  website: guarded('', (row, _a, ctx) => row.website || eventUrl(ctx, row)),
  categories: guarded([], (row, _a, ctx) => terms(ctx, row, 'category')),
  tags: guarded([], (row, _a, ctx) => terms(ctx, row, 'tag')),
  venue: guarded(null, (row, _a, ctx) => venue(ctx, row)),
  organizer: guarded([], (row, _a, ctx) => organizers(ctx, row)),
  // Single reads only, and never for protected events (the reference's generator skips them).
  json_ld: async (row, _a, ctx) => {
    if (!isSingleRead(row) || row.password !== '') return null;
    const [place, people, image] = await Promise.all([
      venue(ctx, row),
      organizers(ctx, row),
      row.image_id === null ? undefined : ctx.loaders.image.load(row.image_id),
    ]);
    return eventJsonLd(ctx.config, row, {
      venue: place,
      organizer: people[0] ?? null,
      image: image ?? null,
    });
  },
  post_parent: (row) => row.parent_id,
  parent: async (row, _a, ctx) => {
    if (row.parent_id === null) return null;
    const parent = await ctx.loaders.event.load(row.parent_id);
    return parent && canSee(ctx, parent) ? parent : null;
  },
};

export const eventResolvers: Resolvers = {
  Query: {
    events: (_root, args, ctx) => listEvents(ctx, args),
    event: (_root, args, ctx) => getEvent(ctx, args.id, args.password),
    event_by_slug: (_root, args, ctx) => getEventBySlug(ctx, args.slug, args.password),
  },
  Event,
};
