import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from '../../context';
import { writeGeneration, type EventRow } from '../../db';
import {
  isRedacted,
  listEventsAfter,
  seekAfter,
  type EventListArgs,
  type EventSeek,
} from '../../events';
import { canSee } from '../../posts';
import { exportEvents, type ExportEvent } from '../export-rows';
import { STREAM_PAGE_SIZE } from '../export-source';
import { icsChunks } from '../export-stream';
import { addZoneYears, type ZoneYears } from './build';

/**
 * The iCalendar feed of an event list (`GET /events.ics`), streamed in two passes, since the
 * VTIMEZONEs of every zone the events use come before the first VEVENT:
 *
 * 1. the list's keyset pages, rows only (cheap: no links, no rendering): the ids of the feed's events
 *    in list order, the zones and years they span, and a digest of all the feed depends on —
 *    the rows (passwords aside), the caller, the site, and the write generation, which every
 *    calendar write bumps (`src/db/list-counts.ts`), for the venues, organizers and terms the
 *    events show. The digest is the feed's ETag, known before any text is written, so that
 *    `If-None-Match` is answered without the second pass;
 * 2. on demand, those events by id, a chunk at a time, rendered in time slices
 *    (`export-stream.ts`). An event deleted, trashed or unpublished since pass 1 is left out.
 */

/** Bump when a feed's text changes for the same data (a new property, another format). */
const FEED_FORMAT = 1;

/** Events read (with their links) per chunk of pass 2. */
const CHUNK = 50;

export interface IcsFeed {
  /** Digest of everything the feed's text depends on: its validator. */
  version: string;
  /** The calendar's text, chunk by chunk, read and rendered as they are asked for. */
  chunks(): AsyncGenerator<string>;
}

/**
 * The list's rows after `after` (from the first when null): keyset pages, so a deep page reads no
 * skipped rows, and rows written or deleted meanwhile neither repeat nor skip the others.
 */
async function rowsAfter(
  ctx: AppContext,
  args: EventListArgs,
  after: EventSeek | null,
  perPage: number,
): Promise<EventRow[]> {
  ctx.resetLoaders(); // one page of rows in memory at a time
  return listEventsAfter(ctx, args, after, perPage);
}

/** The events of `ids` still visible to the caller, as lists show them, a chunk at a time. */
async function* eventPages(ctx: AppContext, ids: readonly number[]): AsyncGenerator<ExportEvent[]> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await nextTurn();
    ctx.resetLoaders();
    const rows = await ctx.loaders.event.loadMany(ids.slice(i, i + CHUNK));
    const shown = rows.filter(
      (row): row is EventRow => row !== undefined && !(row instanceof Error) && canSee(ctx, row),
    );
    yield await exportEvents(ctx, shown);
  }
}

/** Pass 1 over the list `args` selects (at most `limit` events); the text is `chunks()`. */
export async function icsFeed(
  ctx: AppContext,
  args: EventListArgs,
  limit: number,
  name: string,
): Promise<IcsFeed> {
  // Read first: a write during the pass then changes the next request's validator.
  const generation = await writeGeneration(ctx.db);
  const { siteUrl, currencySymbol, currencyPosition } = ctx.config;
  const user = ctx.viewer.user;
  const digest = createHash('sha256').update(
    JSON.stringify([FEED_FORMAT, name, siteUrl, currencySymbol, currencyPosition, generation]),
  );
  digest.update(JSON.stringify([user?.id ?? 0, user?.role ?? '']));
  const ids: number[] = [];
  const zones: ZoneYears = new Map();
  const perPage = Math.min(STREAM_PAGE_SIZE, limit);
  for (let after: EventSeek | null = null; ids.length < limit;) {
    if (after) await nextTurn();
    const rows = await rowsAfter(ctx, args, after, perPage);
    for (const row of rows.slice(0, limit - ids.length)) {
      const redacted = isRedacted(ctx, row);
      // As `calendarText` decides: a redacted event shows no all-day flag.
      if (redacted || !row.all_day) {
        addZoneYears(zones, row.timezone, row.utc_start_date, row.utc_end_date);
      }
      const { password, ...shown } = row;
      digest.update(JSON.stringify([shown, password !== '', redacted]));
      ids.push(row.id);
    }
    const last = rows[rows.length - 1];
    if (rows.length < perPage || !last) break;
    after = seekAfter(last);
  }
  return {
    version: digest.digest('base64url'),
    chunks: () => icsChunks({ name, zones }, eventPages(ctx, ids)),
  };
}
