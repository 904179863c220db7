import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Config } from '../config';
import { createContext, type AppContext } from '../context';
import { dialectOf, type Db, type EventRow } from '../db';
import {
  getEvent,
  listEvents,
  listEventsAfter,
  seekAfter,
  type EventListArgs,
  type EventSeek,
} from '../events';
import { DomainError } from '../lib';
import { listOrganizers, listVenues, type LinkedListArgs } from '../places';
import { listTerms, type TermListArgs } from '../terms';
import { viewerFor, type ViewerUser } from '../users';
import {
  exportEvents,
  exportOrganizer,
  exportTerm,
  exportVenue,
  type ExportEvent,
  type ExportOrganizer,
  type ExportTerm,
  type ExportVenue,
} from './export-rows';

/**
 * What exports read (ICS feeds, CSV over HTTP, `export:csv`, `export:ics`): the records the
 * domains' own queries answer to the caller's context — the list a REST or GraphQL list of the
 * same arguments would give, single reads with their password rules — as `export-rows.ts`
 * shapes. HTTP exports read with the request's context, the CLI as the administrator. Each page
 * is read with fresh loaders, so memory stays bounded by one page whatever the export's size,
 * and the pages after the first wait for a turn of the event loop (`export-stream.ts`).
 */

/** The largest page exports read (above the public `per_page` cap, which they lift). */
export const EXPORT_PAGE_SIZE = 500;

/**
 * Rows per page of the exports served over HTTP: on SQLite a page is read without letting go of
 * the event loop (better-sqlite3 is synchronous), so pages stay small enough (a few ms) for the
 * other requests to be answered in between.
 */
export const STREAM_PAGE_SIZE = 100;

export const COLLECTIONS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** The list arguments of each collection, as its domain takes them (page and size aside). */
export interface ExportArgs {
  events: EventListArgs;
  venues: LinkedListArgs;
  organizers: LinkedListArgs;
  categories: TermListArgs;
  tags: TermListArgs;
}

export interface ExportItems {
  events: ExportEvent;
  venues: ExportVenue;
  organizers: ExportOrganizer;
  categories: ExportTerm;
  tags: ExportTerm;
}

export interface PagedList<T> {
  total: number;
  items: T[];
  /** Events: where the next (keyset) page starts, the last row's sort key; null: no rows. */
  after?: EventSeek | null;
}

/** `ctx` with the per-page cap lifted to the export's page size. */
export function exportContext(ctx: AppContext): AppContext {
  const perPageMax = Math.max(ctx.config.perPageMax, EXPORT_PAGE_SIZE);
  ctx.config = { ...ctx.config, perPageMax };
  return ctx;
}

/** A context outside HTTP (the CLI): `user` sees every non-trashed record, unredacted if admin. */
export function userExportContext(db: Db, config: Config, user: ViewerUser, now: Date): AppContext {
  const deps = { config, db, dialect: dialectOf(config.databaseUrl), now: () => now };
  return exportContext(createContext(deps, viewerFor(user)));
}

/** One page of a collection: `args` plus this page and size. */
export async function fetchPage<C extends Collection>(
  ctx: AppContext,
  collection: C,
  args: ExportArgs[C],
  page: number,
  perPage: number,
): Promise<PagedList<ExportItems[C]>> {
  ctx.resetLoaders(); // one page of rows in memory at a time
  const paged = { page, per_page: perPage };
  let list: PagedList<unknown>;
  if (collection === 'events') {
    const { events, total } = await listEvents(ctx, { ...(args as EventListArgs), ...paged });
    list = { ...(await eventItems(ctx, events)), total };
  } else if (collection === 'venues') {
    const { venues, total } = await listVenues(ctx, { ...(args as LinkedListArgs), ...paged });
    list = { total, items: venues.map((row) => exportVenue(ctx, row)) };
  } else if (collection === 'organizers') {
    const found = await listOrganizers(ctx, { ...(args as LinkedListArgs), ...paged });
    list = { total: found.total, items: found.organizers.map((row) => exportOrganizer(ctx, row)) };
  } else {
    const taxonomy = collection === 'categories' ? 'category' : 'tag';
    const { rows, total } = await listTerms(ctx, taxonomy, { ...(args as TermListArgs), ...paged });
    const withParent = taxonomy === 'category';
    list = { total, items: await Promise.all(rows.map((t) => exportTerm(ctx, t, withParent))) };
  }
  return list as PagedList<ExportItems[C]>;
}

/** Events as exports show them, and the key of the last one (where the next page starts). */
async function eventItems(
  ctx: AppContext,
  events: EventRow[],
): Promise<{ items: ExportEvent[]; after: EventSeek | null }> {
  const last = events[events.length - 1];
  await nextTurn(); // the links in a turn of their own (on SQLite, reads hold the event loop)
  const items = await exportEvents(ctx, events);
  return { items, after: last ? seekAfter(last) : null };
}

/**
 * The events page after `after` (a keyset page: no skipped rows read at any depth; `total` is
 * not counted again).
 */
async function eventsAfter<C extends Collection>(
  ctx: AppContext,
  args: EventListArgs,
  after: EventSeek,
  perPage: number,
  total: number,
): Promise<PagedList<ExportItems[C]>> {
  ctx.resetLoaders(); // one page of rows in memory at a time
  const page = await eventItems(ctx, await listEventsAfter(ctx, args, after, perPage));
  return { ...page, total } as PagedList<ExportItems[C]>;
}

export function isPageNotFound(error: unknown): boolean {
  return error instanceof DomainError && error.reason === 'page_not_found';
}

/**
 * Every item of a list, page after page from `first` (already fetched: its errors are the
 * request's), at most `limit` items. Events continue after the last row of the page before
 * (keyset pages), so events created or deleted meanwhile neither repeat nor skip the others;
 * other collections read numbered pages, which a record created or deleted meanwhile may shift.
 */
export async function* remainingPages<C extends Collection>(
  ctx: AppContext,
  collection: C,
  args: ExportArgs[C],
  first: PagedList<ExportItems[C]>,
  perPage: number,
  limit = Infinity,
): AsyncGenerator<ExportItems[C][]> {
  let sent = 0;
  let page = 1;
  let current = first;
  for (;;) {
    const items = current.items.slice(0, Math.max(0, limit - sent));
    if (items.length) yield items;
    sent += items.length;
    if (sent >= limit || current.items.length < perPage) return;
    // A keyset walk ends on a short page: the first page's total may be stale by now.
    const after = collection === 'events' ? current.after : undefined;
    if (!after && page * perPage >= current.total) return;
    page += 1;
    await nextTurn();
    try {
      current = after
        ? await eventsAfter<C>(ctx, args as EventListArgs, after, perPage, current.total)
        : await fetchPage(ctx, collection, args, page, perPage);
    } catch (error) {
      // Records deleted meanwhile: the page is past the end now.
      if (isPageNotFound(error)) return;
      throw error;
    }
  }
}

/** One event as a single read shows it (`password` as for the JSON read). */
export async function singleEvent(
  ctx: AppContext,
  id: number,
  password?: string | null,
): Promise<ExportEvent> {
  const [event] = await exportEvents(ctx, [await getEvent(ctx, id, password)]);
  return event!;
}

/** Codes of an event deleted or trashed between listing its id and reading it. */
const SKIPPED = new Set(['NOT_FOUND', 'FORBIDDEN', 'GONE']);

/**
 * These events (ids of non-trashed events), in id order, read as single events so hidden and
 * protected ones come whole, their links batched by the loaders. An event deleted meanwhile is
 * skipped.
 */
export async function eventsByIds(ctx: AppContext, ids: readonly number[]): Promise<ExportEvent[]> {
  ctx.resetLoaders();
  const read = async (id: number): Promise<EventRow | null> => {
    try {
      return await getEvent(ctx, id);
    } catch (error) {
      if (error instanceof DomainError && SKIPPED.has(error.code)) return null;
      throw error;
    }
  };
  const rows = await Promise.all(ids.map(read));
  const found = rows.filter((row): row is EventRow => row !== null);
  return exportEvents(ctx, found);
}

export type { ExportEvent, ExportOrganizer, ExportTerm, ExportVenue } from './export-rows';
