import type { Config } from '../../config/config';
import { dialectOf, type Db } from '../../db/knex';
import { InvalidParamError } from '../../lib/errors';
import { allocatePostIds, insertValues, termTaxonomies } from '../store/bulk';
import type { Queryable } from '../../db/queryable';
import { batchSizeOf, inBatch, pipeline, recordError, type BulkOptions } from './batches';
import {
  assignSlugs,
  checkedName,
  importContext,
  publishingColumns,
  slugBase,
  type BulkPublishing,
  type ImportContext,
} from './common';
import { EventDateReader } from './dates';
import { parseCost } from '../../events/input-cost';
import { checkWebsite } from '../../posts/fields';
import { refreshTermCounts } from '../../terms/terms';

/**
 * Bulk import of events (seeding, CSV/ICS imports, the benchmark datasets): batched multi-row
 * inserts, one transaction per batch, term counts refreshed once at the end. Records carry
 * their venue, organizers and terms as ids already resolved; the same rules as single writes
 * apply to every field (dates in the event's time zone, sanitised HTML, unique slugs).
 */

export interface BulkEventRecord extends BulkPublishing {
  title: string;
  /** Wall clock in `timezone`: `YYYY-MM-DD HH:MM:SS` (fast path) or any contract date input. */
  start_date: string;
  end_date: string;
  /** IANA name, `UTC` or `UTC±H`; default: the site time zone. */
  timezone?: string | null;
  all_day?: boolean | null;
  /** Cost text as a client would send it (`$15`, `Free`, `10, 20`). */
  cost?: string | null;
  website?: string | null;
  show_map?: boolean | null;
  show_map_link?: boolean | null;
  hide_from_listings?: boolean | null;
  sticky?: boolean | null;
  featured?: boolean | null;
  venue_id?: number | null;
  /** In link order. */
  organizer_ids?: readonly number[] | null;
  category_ids?: readonly number[] | null;
  tag_ids?: readonly number[] | null;
}

/** Hooks for importers that call `bulkImportEvents` once per chunk of a larger stream. */
export interface BulkEventOptions extends BulkOptions {
  /**
   * Runs inside each batch's transaction once its events and links are written, with their ids
   * in record order and the batch's offset, so what an importer records about them (external
   * ids) commits or rolls back with them.
   */
  afterBatch?: (trx: Queryable, ids: number[], offset: number) => Promise<void>;
  /**
   * When given, the import adds the terms it linked to this set and leaves their counts to the
   * caller (one refresh at the end of many calls) instead of refreshing them itself.
   */
  deferredTermCounts?: Set<number>;
}

export interface BulkResult {
  /** Ids of the imported records, in record order. */
  ids: number[];
  seconds: number;
}

// Categories and tags share one position sequence per event (as `setTermLinks` writes them).
const TAG_POSITION_OFFSET = 1000;

interface PreparedEvent {
  columns: Record<string, unknown>;
  slugBase: string;
  organizers: number[];
  categories: number[];
  tags: number[];
}

function flag(value: boolean | null | undefined): boolean {
  return value === true;
}

/** The ids in order, each once (lists of a handful: no Set). */
function unique(ids: readonly number[] | null | undefined): number[] {
  const out: number[] = [];
  for (const id of ids ?? []) if (!out.includes(id)) out.push(id);
  return out;
}

/** Validates one record and computes its columns; nothing touches the database here. */
function prepare(
  ctx: ImportContext,
  dates: EventDateReader,
  record: BulkEventRecord,
): PreparedEvent {
  const title = checkedName('title', record.title, 500);
  const website = checkWebsite('website', record.website);
  if (website.length > 2048) throw new InvalidParamError({ website: 'is too long' });
  // One object filled in place (imports build millions of them).
  const columns = publishingColumns(ctx, record);
  columns.title = title;
  Object.assign(columns, dates.read(record), parseCost(record.cost ?? null));
  columns.currency_code = '';
  columns.website = website;
  columns.show_map = flag(record.show_map);
  columns.show_map_link = flag(record.show_map_link);
  columns.hide_from_listings = flag(record.hide_from_listings);
  columns.sticky = flag(record.sticky);
  columns.featured = flag(record.featured);
  columns.venue_id = record.venue_id ?? null;
  columns.parent_id = null;
  return {
    columns,
    slugBase: slugBase(record.slug, title, 'untitled'),
    organizers: unique(record.organizer_ids),
    categories: unique(record.category_ids),
    tags: unique(record.tag_ids),
  };
}

/**
 * Term ids must be terms of the right taxonomy (the foreign key alone would accept a tag): one
 * query for the batch; the first record with an unknown category, else with an unknown tag, is
 * the one reported.
 */
async function checkTerms(q: Queryable, prepared: PreparedEvent[], offset: number): Promise<void> {
  const wanted = new Set<number>();
  for (const p of prepared) for (const id of [...p.categories, ...p.tags]) wanted.add(id);
  const taxonomies = await termTaxonomies(q, [...wanted]);
  for (const [key, taxonomy] of [
    ['categories', 'category'],
    ['tags', 'tag'],
  ] as const) {
    const unknown = (p: PreparedEvent) => p[key].filter((id) => taxonomies.get(id) !== taxonomy);
    const bad = prepared.findIndex((p) => unknown(p).length > 0);
    if (bad >= 0) {
      const ids = unknown(prepared[bad]!);
      throw recordError(offset + bad, new InvalidParamError({ [key]: `unknown id(s) ${ids}` }));
    }
  }
}

/** Writes one batch inside `trx`; returns the new ids in record order. */
async function writeBatch(
  trx: Queryable,
  config: Config,
  prepared: PreparedEvent[],
  offset: number,
  afterBatch?: BulkEventOptions['afterBatch'],
): Promise<number[]> {
  await checkTerms(trx, prepared, offset);
  const ids = await allocatePostIds(trx, dialectOf(config.databaseUrl), 'event', prepared.length);
  const slugs = await assignSlugs(
    trx,
    { table: 'events' },
    prepared.map((p) => p.slugBase),
  );
  // Value lists rather than an object per row (every prepared record has the same columns).
  const columns = Object.keys(prepared[0]!.columns);
  await insertValues(
    trx,
    'events',
    ['id', 'slug', ...columns],
    prepared.map((p, i) => {
      const values: unknown[] = [ids[i], slugs[i]];
      for (const column of columns) values.push(p.columns[column]);
      return values;
    }),
  );
  const organizerLinks: number[][] = [];
  const termLinks: number[][] = [];
  prepared.forEach((p, i) => {
    const id = ids[i]!;
    p.organizers.forEach((organizer, position) => organizerLinks.push([id, organizer, position]));
    p.categories.forEach((term, position) => termLinks.push([id, term, position]));
    p.tags.forEach((term, n) => termLinks.push([id, term, TAG_POSITION_OFFSET + n]));
  });
  await insertValues(trx, 'event_organizers', LINK_COLUMNS.organizers, organizerLinks);
  await insertValues(trx, 'event_terms', LINK_COLUMNS.terms, termLinks);
  await afterBatch?.(trx, ids, offset);
  return ids;
}

const LINK_COLUMNS = {
  organizers: ['event_id', 'organizer_id', 'position'],
  terms: ['event_id', 'term_id', 'position'],
};

/**
 * Imports `records` in batches of `batchSize`, each in one transaction: every record of a batch
 * is validated first, then its ids, slugs, rows and links are written with multi-row inserts.
 * A failing batch rolls back entirely and stops the import with a `BulkImportError`; batches
 * committed before it stay, and the counts of their terms are refreshed all the same.
 */
export async function bulkImportEvents(
  db: Db,
  config: Config,
  records: Iterable<BulkEventRecord> | AsyncIterable<BulkEventRecord>,
  options: BulkEventOptions = {},
): Promise<BulkResult> {
  const started = performance.now();
  const size = batchSizeOf(options, dialectOf(config.databaseUrl));
  const ctx = await importContext(db, config, options);
  const dates = new EventDateReader(config.siteTimezone, options.now ?? new Date());
  const ids: number[] = [];
  const touchedTerms = options.deferredTermCounts ?? new Set<number>();
  const refreshCounts = options.deferredTermCounts ? async () => undefined : refreshTermCountsOf;
  const write = async (prepared: PreparedEvent[], offset: number): Promise<void> => {
    const fn = (trx: Queryable) => writeBatch(trx, config, prepared, offset, options.afterBatch);
    ids.push(...(await inBatch(db, offset, prepared.length, fn)));
    for (const p of prepared) {
      for (const id of [...p.categories, ...p.tags]) touchedTerms.add(id);
    }
    options.onProgress?.(ids.length, options.total ?? null);
  };
  try {
    await pipeline(records, size, (r) => prepare(ctx, dates, r), write);
  } catch (error) {
    // Committed batches stay: their terms must count them even though the import stopped.
    await refreshCounts(db, [...touchedTerms]).catch(() => undefined);
    throw error;
  }
  await refreshCounts(db, [...touchedTerms]);
  return { ids, seconds: (performance.now() - started) / 1000 };
}

/** Recounts in statements of 500 terms, so the IN lists stay small on every dialect. */
export async function refreshTermCountsOf(db: Db, termIds: number[]): Promise<void> {
  for (let i = 0; i < termIds.length; i += 500) {
    await refreshTermCounts(db, termIds.slice(i, i + 500));
  }
}
