import type { AppContext } from '../context';
import type { EventRow, OrganizerRow, TermRow, VenueRow } from '../db';
import { emptyCostDetails, formatCost, isRedacted, stateProvinceOf } from '../events';
import { globalId } from '../lib';
import { canSee, pageUrl } from '../posts';
import { termUrl } from '../terms';
import { importKeysOf } from './store/imports';

/**
 * What exports carry of each record (ICS feeds, CSV over HTTP, `export:csv`, `export:ics`): the
 * fields of the GraphQL types of the same name, computed by the same domain functions as their
 * resolvers — visibility of nested records (`canSee`), redaction of password-protected events
 * in lists (`isRedacted`), cost formatting, URLs, global ids — from rows the domains' queries
 * read with the caller's context.
 */

export interface ExportVenue {
  id: number;
  global_id: string;
  slug: string;
  status: string;
  venue: string;
  description: string;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  stateprovince: string;
  zip: string;
  phone: string;
  website: string;
  geo_lat: number | null;
  geo_lng: number | null;
  show_map: boolean;
  show_map_link: boolean;
  url: string;
  date_utc: string;
  modified_utc: string;
}

export interface ExportOrganizer {
  id: number;
  global_id: string;
  slug: string;
  status: string;
  organizer: string;
  description: string;
  email: string;
  phone: string;
  website: string;
  url: string;
  date_utc: string;
  modified_utc: string;
}

export interface ExportTerm {
  id: number;
  name: string;
  slug: string;
  description: string;
  count: number;
  url: string;
  /** Categories only. */
  parent?: number;
}

export interface ExportEvent {
  id: number;
  global_id: string;
  slug: string;
  status: string;
  title: string;
  description: string;
  excerpt: string;
  url: string;
  /** The stored website, or the event's `url` when it has none (as the contract renders it). */
  website: string;
  /** null when redacted (password-protected event in a list). */
  all_day: boolean | null;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  cost: string;
  cost_details: { currency_symbol: string; currency_position: string; values: string[] };
  show_map: boolean | null;
  show_map_link: boolean | null;
  hide_from_listings: boolean | null;
  sticky: boolean | null;
  featured: boolean | null;
  date_utc: string;
  modified_utc: string;
  venue: ExportVenue | null;
  organizer: ExportOrganizer[];
  categories: ExportTerm[];
  tags: ExportTerm[];
}

export function exportVenue(ctx: AppContext, v: VenueRow): ExportVenue {
  return {
    id: v.id,
    global_id: globalId(ctx.config, v.id),
    slug: v.slug,
    status: v.status,
    venue: v.title,
    description: v.description,
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    state: v.state,
    stateprovince: stateProvinceOf(v),
    zip: v.zip,
    phone: v.phone,
    website: v.website,
    geo_lat: v.geo_lat,
    geo_lng: v.geo_lng,
    show_map: v.show_map,
    show_map_link: v.show_map_link,
    url: pageUrl(ctx.config, 'venue', v.slug),
    date_utc: v.date_utc,
    modified_utc: v.modified_utc,
  };
}

export function exportOrganizer(ctx: AppContext, o: OrganizerRow): ExportOrganizer {
  return {
    id: o.id,
    global_id: globalId(ctx.config, o.id),
    slug: o.slug,
    status: o.status,
    organizer: o.title,
    description: o.description,
    email: o.email,
    phone: o.phone,
    website: o.website,
    url: pageUrl(ctx.config, 'organizer', o.slug),
    date_utc: o.date_utc,
    modified_utc: o.modified_utc,
  };
}

/** A term; `parent` for the categories collection (a category nested in an event has none). */
export async function exportTerm(
  ctx: AppContext,
  t: TermRow,
  withParent = false,
): Promise<ExportTerm> {
  const term: ExportTerm = {
    id: t.id,
    name: t.name,
    slug: t.slug,
    description: t.description,
    count: t.count,
    url: await termUrl(ctx, t),
  };
  if (withParent) term.parent = t.parent_id ?? 0;
  return term;
}

/** The event's venue when there is one the caller may see. */
async function venueOf(ctx: AppContext, row: EventRow): Promise<ExportVenue | null> {
  if (row.venue_id === null) return null;
  const found = await ctx.loaders.venue.load(row.venue_id);
  return found && canSee(ctx, found) ? exportVenue(ctx, found) : null;
}

async function organizersOf(ctx: AppContext, row: EventRow): Promise<ExportOrganizer[]> {
  const linked = (await ctx.loaders.eventLinks.load(row.id)).organizers;
  return linked.filter((o) => canSee(ctx, o)).map((o) => exportOrganizer(ctx, o));
}

async function termsOf(ctx: AppContext, row: EventRow): Promise<[ExportTerm[], ExportTerm[]]> {
  const linked = (await ctx.loaders.eventLinks.load(row.id)).terms;
  const of = (taxonomy: TermRow['taxonomy']) =>
    Promise.all(linked.filter((t) => t.taxonomy === taxonomy).map((t) => exportTerm(ctx, t)));
  return Promise.all([of('category'), of('tag')]);
}

/**
 * Events as exports show them, each under its identity in exports: the key an import created
 * it from (an ICS UID, another calendar's `global_id`, a demo key), else this site's global id
 * (docs/import-export.md "Identity"). Importing the export matches each row back by it.
 */
export async function exportEvents(
  ctx: AppContext,
  rows: readonly EventRow[],
): Promise<ExportEvent[]> {
  const keys = await importKeysOf(
    ctx.db,
    rows.map((row) => row.id),
  );
  return Promise.all(rows.map((row) => exportEvent(ctx, row, keys.get(row.id))));
}

async function exportEvent(ctx: AppContext, row: EventRow, key?: string): Promise<ExportEvent> {
  const redacted = isRedacted(ctx, row);
  const url = pageUrl(ctx.config, 'event', row.slug);
  const flag = (value: boolean) => (redacted ? null : value);
  const cost = redacted
    ? { cost: '', cost_details: emptyCostDetails() }
    : formatCost(row, { symbol: ctx.config.currencySymbol, position: ctx.config.currencyPosition });
  // Every load of the event starts before the first wait, so a page's loads batch together.
  const [venue, organizer, [categories, tags]] = redacted
    ? [null, [], [[], []] as [ExportTerm[], ExportTerm[]]]
    : await Promise.all([venueOf(ctx, row), organizersOf(ctx, row), termsOf(ctx, row)]);
  return {
    id: row.id,
    global_id: key ?? globalId(ctx.config, row.id),
    slug: row.slug,
    status: row.status,
    title: row.title,
    description: redacted ? '' : row.description,
    excerpt: redacted ? '' : row.excerpt,
    url,
    website: redacted ? '' : row.website || url,
    all_day: flag(row.all_day),
    start_date: row.start_date,
    end_date: row.end_date,
    utc_start_date: row.utc_start_date,
    utc_end_date: row.utc_end_date,
    timezone: row.timezone,
    cost: cost.cost,
    cost_details: {
      currency_symbol: cost.cost_details.currency_symbol,
      currency_position: cost.cost_details.currency_position,
      values: cost.cost_details.values,
    },
    show_map: flag(row.show_map),
    show_map_link: flag(row.show_map_link),
    hide_from_listings: flag(row.hide_from_listings),
    sticky: flag(row.sticky),
    featured: flag(row.featured),
    date_utc: row.date_utc,
    modified_utc: row.modified_utc,
    venue,
    organizer,
    categories,
    tags,
  };
}
