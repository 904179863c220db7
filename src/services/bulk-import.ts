import type { Config } from '../config';
import { dialectOf, type Db } from '../db/knex';
import { InvalidParamError } from '../errors';
import { allocatePostIds, insertRows } from '../repositories/bulk';
import type { Queryable } from '../repositories/queryable';
import type { Taxonomy } from '../repositories/rows';
import { existingTermIds } from '../repositories/terms';
import { batchSizeOf, inBatch, pipeline, recordError, type BulkOptions } from './bulk-batches';
import {
  assignSlugs,
  checkedName,
  importContext,
  publishingColumns,
  slugBase,
  type BulkPublishing,
  type ImportContext,
} from './bulk-common';
import { EventDateReader } from './bulk-dates';
import { parseCost } from './event-input-cost';
import { checkWebsite } from './post-fields';
import { refreshTermCounts } from './terms';

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

function unique(ids: readonly number[] | null | undefined): number[] {
  return [...new Set(ids ?? [])];
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
  return {
    columns: {
      ...publishingColumns(ctx, record),
      title,
      ...dates.read(record),
      ...parseCost(record.cost ?? null),
      currency_code: '',
      website,
      show_map: flag(record.show_map),
      show_map_link: flag(record.show_map_link),
      hide_from_listings: flag(record.hide_from_listings),
      sticky: flag(record.sticky),
      featured: flag(record.featured),
      venue_id: record.venue_id ?? null,
      parent_id: null,
    },
    slugBase: slugBase(record.slug, title, 'untitled'),
    organizers: unique(record.organizer_ids),
    categories: unique(record.category_ids),
    tags: unique(record.tag_ids),
  };
}

/** Term ids must be terms of the right taxonomy (the foreign key alone would accept a tag). */
async function checkTerms(
  q: Queryable,
  prepared: PreparedEvent[],
  offset: number,
  taxonomy: Taxonomy,
): Promise<void> {
  const key = taxonomy === 'category' ? 'categories' : 'tags';
  const wanted = [...new Set(prepared.flatMap((p) => p[key]))];
  const known = await existingTermIds(q, taxonomy, wanted);
  const bad = prepared.findIndex((p) => p[key].some((id) => !known.has(id)));
  if (bad >= 0) {
    const ids = prepared[bad]![key].filter((id) => !known.has(id));
    throw recordError(offset + bad, new InvalidParamError({ [key]: `unknown id(s) ${ids}` }));
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
  await checkTerms(trx, prepared, offset, 'category');
  await checkTerms(trx, prepared, offset, 'tag');
  const ids = await allocatePostIds(trx, dialectOf(config.databaseUrl), 'event', prepared.length);
  const slugs = await assignSlugs(
    trx,
    { table: 'events' },
    prepared.map((p) => p.slugBase),
  );
  await insertRows(
    trx,
    'events',
    prepared.map((p, i) => ({ id: ids[i], slug: slugs[i], ...p.columns })),
  );
  await insertRows(
    trx,
    'event_organizers',
    prepared.flatMap((p, i) =>
      p.organizers.map((organizer_id, position) => ({ event_id: ids[i], organizer_id, position })),
    ),
  );
  await insertRows(
    trx,
    'event_terms',
    prepared.flatMap((p, i) => [
      ...p.categories.map((term_id, position) => ({ event_id: ids[i], term_id, position })),
      ...p.tags.map((term_id, n) => ({
        event_id: ids[i],
        term_id,
        position: TAG_POSITION_OFFSET + n,
      })),
    ]),
  );
  await afterBatch?.(trx, ids, offset);
  return ids;
}

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
  const size = batchSizeOf(options);
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
