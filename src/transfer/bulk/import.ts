import type { Config } from '../../config';
import { dialectOf, type Db, type Queryable, type Taxonomy } from '../../db';
import {
  eventFieldColumns,
  throwEventProblems,
  type EventChanges,
  type EventFlagFields,
} from '../../events';
import { assertOrganizersLinkable, assertVenuesLinkable } from '../../places';
import { Problems, slugBase } from '../../posts';
import { assertKnownTermIds, refreshTermCounts } from '../../terms';
import { allocatePostIds, insertValues, termTaxonomies } from '../store/bulk';
import { batchSizeOf, inBatch, pipeline, recordError, type BulkOptions } from './batches';
import { assignSlugs, importContext, type BulkPublishing, type ImportContext } from './common';

/**
 * Bulk import of events (seeding, CSV/ICS imports, the benchmark datasets): batched multi-row
 * inserts, one transaction per batch, term counts refreshed once at the end. Records carry
 * their venue, organizers and terms as ids already resolved. Each record goes through the
 * events domain's own normaliser (`eventFieldColumns`, the database-free part of a single
 * write), and its links through the same checks as an event write's, a batch at a time.
 */

export interface BulkEventRecord extends BulkPublishing, EventFlagFields {
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
  /**
   * The columns `eventFieldColumns` already gave a record (importers check each record before
   * writing it, by the same normaliser): used instead of normalising it a second time.
   */
  normalised?: (record: BulkEventRecord) => EventChanges | undefined;
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

/** The ids in order, each once (lists of a handful: no Set). */
function unique(ids: readonly number[] | null | undefined): number[] {
  const out: number[] = [];
  for (const id of ids ?? []) if (!out.includes(id)) out.push(id);
  return out;
}

/** Validates one record and computes its columns; nothing touches the database here. */
function prepare(
  ctx: ImportContext,
  record: BulkEventRecord,
  normalised?: EventChanges,
): PreparedEvent {
  const p = new Problems();
  // One object filled in place (imports build millions of them).
  const columns = (
    normalised ? { ...normalised } : eventFieldColumns(ctx.writer, record, null, p)
  ) as Record<string, unknown>;
  const base = p.check(() => slugBase(record.slug, String(columns.title ?? '')));
  throwEventProblems(p.params);
  Object.assign(columns, ctx.stamps);
  columns.venue_id = record.venue_id ?? null;
  return {
    columns,
    slugBase: base!,
    organizers: unique(record.organizer_ids),
    categories: unique(record.category_ids),
    tags: unique(record.tag_ids),
  };
}

const TAXONOMIES: [keyof PreparedEvent & ('categories' | 'tags'), Taxonomy][] = [
  ['categories', 'category'],
  ['tags', 'tag'],
];

/**
 * Term ids must be terms of the right taxonomy (the foreign key alone would accept a tag): one
 * query for the batch; the first record with an unknown category, else with an unknown tag, is
 * the one reported, as an event write reports it.
 */
async function checkTerms(q: Queryable, prepared: PreparedEvent[], offset: number): Promise<void> {
  const wanted = new Set<number>();
  for (const p of prepared) for (const id of [...p.categories, ...p.tags]) wanted.add(id);
  const taxonomies = await termTaxonomies(q, [...wanted]);
  for (const [key, taxonomy] of TAXONOMIES) {
    const known = new Set([...taxonomies].filter(([, t]) => t === taxonomy).map(([id]) => id));
    prepared.forEach((p, i) => {
      try {
        assertKnownTermIds(taxonomy, p[key], known);
      } catch (error) {
        throw recordError(offset + i, error);
      }
    });
  }
}

/**
 * Venues and organizers must be live records, as in an event write. Checked inside the batch's
 * transaction: a failure rolls the whole batch back.
 */
async function checkPlaces(q: Queryable, prepared: PreparedEvent[]): Promise<void> {
  const venues = prepared.flatMap((p) => (p.columns.venue_id === null ? [] : [p.columns.venue_id]));
  await assertVenuesLinkable(q, [...new Set(venues as number[])]);
  await assertOrganizersLinkable(q, [...new Set(prepared.flatMap((p) => p.organizers))]);
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
  await checkPlaces(trx, prepared);
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
    await pipeline(records, size, (r) => prepare(ctx, r, options.normalised?.(r)), write);
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
