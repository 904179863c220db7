import type { AppContext } from '../../context';
import type { EventRow, TermRow } from '../../db';
import { formatCost, isRedacted, listEvents, type EventListArgs } from '../../events';
import { canSee, pageUrl, renderTitle, renderedText } from '../../posts';
import { termUrl } from '../../terms';
import { isoRange, whenText } from '../format';
import { local } from '../page';

/** An event as lists show it (calendar, venue, organizer, category and tag pages). */
export interface EventSummary {
  title: string;
  url: string;
  when: string;
  start: string;
  day: string;
  venue: string;
  cost: string;
  categories: TermLink[];
}

export interface TermLink {
  name: string;
  url: string;
}

/** One page of a list of events, with what the pager needs. */
export interface EventPage {
  events: EventSummary[];
  total: number;
  page: number;
  totalPages: number;
}

/** A title or name as plain text, with the typography the API's rendered fields carry. */
export function plainTitle(title: string): string {
  return renderedText(renderTitle(title)) || '(untitled)';
}

export async function termLinks(ctx: AppContext, terms: TermRow[]): Promise<TermLink[]> {
  return Promise.all(
    terms.map(async (t) => ({
      name: plainTitle(t.name),
      url: local(ctx.config, await termUrl(ctx, t)),
    })),
  );
}

/** What the API shows of an event in a list: protected events show their title and date only. */
export async function summarise(ctx: AppContext, row: EventRow): Promise<EventSummary> {
  const base = {
    title: plainTitle(row.title),
    url: local(ctx.config, pageUrl(ctx.config, 'event', row.slug)),
    when: whenText(row),
    start: isoRange(row).start,
    day: row.start_date.slice(0, 10),
  };
  if (isRedacted(ctx, row)) return { ...base, venue: '', cost: '', categories: [] };
  const [venue, terms] = await Promise.all([
    row.venue_id === null ? undefined : ctx.loaders.venue.load(row.venue_id),
    ctx.loaders.eventLinks.load(row.id).then((links) => links.terms),
  ]);
  const place =
    venue && canSee(ctx, venue)
      ? [plainTitle(venue.title), venue.city, venue.country].filter((p) => p.trim()).join(', ')
      : '';
  const { cost } = formatCost(row, {
    symbol: ctx.config.currencySymbol,
    position: ctx.config.currencyPosition,
  });
  const categories = await termLinks(
    ctx,
    terms.filter((t) => t.taxonomy === 'category'),
  );
  return { ...base, venue: place, cost, categories };
}

/** A page of the events list (the API's `events` with these arguments), summarised. */
export async function eventPage(
  ctx: AppContext,
  args: EventListArgs,
  page: number,
): Promise<EventPage> {
  const list = await listEvents(ctx, { ...args, page });
  return {
    events: await Promise.all(list.events.map((row) => summarise(ctx, row))),
    total: list.total,
    page,
    totalPages: list.total_pages,
  };
}
