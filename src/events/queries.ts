import type { AppContext } from '../context';
import type { EventRow } from '../db';
import { notFound, passwordProtected, primeAll } from '../lib';
import {
  assertReadable,
  asSingleRead,
  envelope,
  given,
  isSingleRead,
  type Envelope,
} from '../posts';
import { canEditRecord, seesUnpublished } from '../users';
import { RELATIVE, resolveEventFilter, withoutEmptyLists, type DateParam } from './filters';
import type { EventListArgs } from './list-args';
import { findEventPage, findEventPageAndTotal, type EventSeek } from './store/event-list';
import { findDeepEventPage } from './store/deep-pages';
import { findEventBySlug, type EventsRead } from './store/event-reads';

/**
 * The events read side: the list, single reads, and who sees an event's protected details.
 * Single reads mark their row (`asSingleRead`), so only
 * they compute `json_ld` — the event's and its nested venue's and organizers'.
 */

export interface EventList extends Envelope {
  events: EventRow[];
}

/**
 * One page of events and the list's total (kept while no calendar write happened: one statement
 * for both then, see list-counts.ts `pageAndTotal`; else a count, then the page only when it has
 * rows). Page rows prime the event loader for `parent` lookups, their venues the venue loader.
 */
export async function listEvents(ctx: AppContext, raw: EventListArgs): Promise<EventList> {
  const args = withoutEmptyLists(raw);
  const { filter, paged, dates } = await resolveEventFilter(ctx, args);
  const read =
    (await findDeepEventPage(ctx.db, filter, paged.perPage, paged.offset)) ??
    (await findEventPageAndTotal(ctx.db, filter, paged.perPage, paged.offset));
  const env = envelope(
    ctx.config,
    'event',
    'events',
    paged,
    read.total,
    echo(ctx, args, dates),
    ctx.restNamespace,
  );
  return { events: primed(ctx, read), ...env };
}

/**
 * Exports' keyset pages (internal: no client sends `after`): up to `perPage` events of the list
 * `raw` selects, with the same filter and visibility, strictly after `after` in list order (from
 * the first when null), without a count. A deep page costs what the first does, and rows written
 * or deleted meanwhile neither repeat nor skip the rows present throughout.
 */
export async function listEventsAfter(
  ctx: AppContext,
  raw: EventListArgs,
  after: EventSeek | null,
  perPage: number,
): Promise<EventRow[]> {
  const args = withoutEmptyLists({ ...raw, page: 1, per_page: perPage });
  const { filter, paged } = await resolveEventFilter(ctx, args);
  return primed(ctx, await findEventPage(ctx.db, filter, paged.perPage, 0, after));
}

/** Where the keyset page after `row` starts. */
export function seekAfter(row: EventRow): EventSeek {
  return { start_date: row.start_date, id: row.id };
}

/**
 * Seeds the loaders with what a read fetched: its events, the venues joined to them and, when
 * it brought them, their links.
 */
export function primed(ctx: AppContext, read: EventsRead): EventRow[] {
  primeAll(ctx.loaders.event, read.events);
  primeAll(ctx.loaders.venue, read.venues);
  for (const [id, links] of read.links ?? []) ctx.loaders.eventLinks.clear(id).prime(id, links);
  return read.events;
}

function csv(list: readonly (string | number)[]): string {
  return list.map((v) => String(v).trim()).join(',');
}

/** The reference's echo order; lists as CSV; booleans as `true`/`false`. */
export function echo(
  ctx: AppContext,
  args: EventListArgs,
  dates: Map<DateParam, string>,
): [string, string][] {
  const q: [string, string][] = [];
  const push = (key: string, value: unknown): void => {
    if (!given(value)) return;
    q.push([key, Array.isArray(value) ? csv(value) : String(value)]);
  };
  push('start_date', dates.get('start_date'));
  push('end_date', dates.get('end_date'));
  push('search', args.search);
  if (given(args.status) && args.status.length) push('status', [...new Set(args.status)]);
  else if (!seesUnpublished(ctx.viewer)) push('status', 'publish');
  push('include', args.include);
  push('post_parent', args.post_parent);
  for (const p of RELATIVE) push(p, dates.get(p));
  // [ours] Strict bounds are exact times: the links must keep them exact.
  if (args.strict_dates === true && dates.size) push('strict_dates', 'true');
  push('ticketed', args.ticketed);
  push('geoloc', args.geoloc);
  push('geoloc_lat', args.geoloc_lat);
  push('geoloc_lng', args.geoloc_lng);
  push('geoloc_radius', args.geoloc_radius);
  push('categories', args.categories);
  push('tags', args.tags);
  push('venue', args.venue);
  push('organizer', args.organizer);
  push('featured', args.featured);
  return q;
}

/**
 * Protected details are hidden (docs/contract.md §9) unless the caller may edit the event or this
 * is a single read that already checked the password.
 */
export function isRedacted(ctx: AppContext, row: EventRow): boolean {
  return row.password !== '' && !isSingleRead(row) && !canEditRecord(ctx.viewer, row);
}

async function readable(
  ctx: AppContext,
  row: EventRow,
  password: string | null | undefined,
): Promise<EventRow> {
  assertReadable(ctx, 'event', row);
  if (row.password !== '' && !canEditRecord(ctx.viewer, row)) {
    // No password sent is no guess; guesses are counted per caller and event (429 past a limit).
    const given = password ?? '';
    const right =
      given !== '' && (await ctx.passwordGuesses.check(`event:${row.id}`, given, row.password));
    if (!right) throw passwordProtected('event');
  }
  return asSingleRead(row);
}

export async function getEvent(
  ctx: AppContext,
  id: number,
  password?: string | null,
): Promise<EventRow> {
  const row = await ctx.loaders.event.load(id);
  if (!row) throw notFound('event', id);
  return readable(ctx, row, password);
}

export async function getEventBySlug(
  ctx: AppContext,
  slug: string,
  password?: string | null,
): Promise<EventRow> {
  const [row] = primed(ctx, await findEventBySlug(ctx.db, slug));
  if (!row) throw notFound('event', slug);
  return readable(ctx, row, password);
}
