import type { Config } from '../../config';
import { dialectOf, type Db, type Queryable, type Taxonomy } from '../../db';
import { invalid } from '../../lib';
import {
  ORGANIZER_DEFAULTS,
  VENUE_DEFAULTS,
  checkPlaceName,
  organizerColumns,
  placeColumns,
  venueColumns,
  type OrganizerFields,
  type VenueFields,
} from '../../places';
import { slugBase } from '../../posts';
import {
  checkTermDescription,
  checkTermName,
  checkTermNameFree,
  checkTermParent,
  checkTermSlug,
  termSlugBase,
} from '../../terms';
import { allocatePostIds, insertRows, termIdsBySlug } from '../store/bulk';
import { batches, batchSizeOf, inBatch, recordError, type BulkOptions } from './batches';
import { assignSlugs, importContext, type BulkPublishing, type ImportContext } from './common';

/**
 * Bulk creation of the records events link to: venues, organizers, categories and tags, each
 * record checked by its domain's rules as `create_venue` / `create_category` would check it.
 * Unlike single writes these do not de-duplicate venues and organizers by name: an import
 * creates what it is given (an importer that wants reuse looks names up first). Each returns
 * the new ids in record order.
 */

export interface BulkVenueRecord extends BulkPublishing, VenueFields {
  venue: string;
}

export interface BulkOrganizerRecord extends BulkPublishing, OrganizerFields {
  organizer: string;
}

export interface BulkTermRecord {
  name: string;
  slug?: string | null;
  description?: string | null;
  /** Categories only: an existing category id (create parents in an earlier call). */
  parent_id?: number | null;
}

interface PostKind<R> {
  table: 'venues' | 'organizers';
  resource: 'venue' | 'organizer';
  name: (r: R) => string | null | undefined;
  own: (r: R) => Record<string, unknown>;
  defaults: Readonly<Record<string, unknown>>;
}

/** The columns of a new venue/organizer, every one present (multi-row inserts need them all). */
async function postColumns<R extends BulkPublishing>(
  ctx: ImportContext,
  kind: PostKind<R>,
  r: R,
): Promise<{ columns: Record<string, unknown>; base: string }> {
  const title = checkPlaceName(kind.resource, kind.name(r));
  const cols = await placeColumns(ctx.writer, r, true, kind.own, async () => ctx.author);
  return { columns: { ...kind.defaults, ...cols, title }, base: slugBase(r.slug, title) };
}

/** Shared path of venues and organizers: validate a batch, then ids, slugs, one insert. */
async function bulkCreatePosts<R extends BulkPublishing>(
  db: Db,
  config: Config,
  kind: PostKind<R>,
  records: Iterable<R> | AsyncIterable<R>,
  options: BulkOptions,
): Promise<number[]> {
  const ctx = await importContext(db, config, options);
  const ids: number[] = [];
  const size = batchSizeOf(options, dialectOf(config.databaseUrl));
  for await (const batch of batches(records, size)) {
    const offset = ids.length;
    const prepared: { columns: Record<string, unknown>; base: string }[] = [];
    for (const [i, r] of batch.entries()) {
      try {
        prepared.push(await postColumns(ctx, kind, r));
      } catch (error) {
        throw recordError(offset + i, error);
      }
    }
    const write = async (trx: Queryable): Promise<number[]> => {
      const dialect = dialectOf(config.databaseUrl);
      const newIds = await allocatePostIds(trx, dialect, kind.resource, batch.length);
      const slugs = await assignSlugs(
        trx,
        { table: kind.table },
        prepared.map((p) => p.base),
      );
      const rows = prepared.map((p, i) => ({ id: newIds[i], slug: slugs[i], ...p.columns }));
      await insertRows(trx, kind.table, rows);
      return newIds;
    };
    ids.push(...(await inBatch(db, offset, batch.length, write)));
    options.onProgress?.(ids.length, options.total ?? null);
  }
  return ids;
}

const VENUES: PostKind<BulkVenueRecord> = {
  table: 'venues',
  resource: 'venue',
  name: (r) => r.venue,
  own: venueColumns,
  defaults: VENUE_DEFAULTS,
};

const ORGANIZERS: PostKind<BulkOrganizerRecord> = {
  table: 'organizers',
  resource: 'organizer',
  name: (r) => r.organizer,
  own: organizerColumns,
  defaults: ORGANIZER_DEFAULTS,
};

export function bulkCreateVenues(
  db: Db,
  config: Config,
  records: Iterable<BulkVenueRecord> | AsyncIterable<BulkVenueRecord>,
  options: BulkOptions = {},
): Promise<number[]> {
  return bulkCreatePosts(db, config, VENUES, records, options);
}

export function bulkCreateOrganizers(
  db: Db,
  config: Config,
  records: Iterable<BulkOrganizerRecord> | AsyncIterable<BulkOrganizerRecord>,
  options: BulkOptions = {},
): Promise<number[]> {
  return bulkCreatePosts(db, config, ORGANIZERS, records, options);
}

interface PreparedTerm {
  name: string;
  description: string;
  base: string;
  parent: number | null | undefined;
}

/** A term's own fields, as `create_category` / `create_tag` check them before any query. */
function prepareTerm(taxonomy: Taxonomy, r: BulkTermRecord): PreparedTerm {
  const name = checkTermName(r.name);
  const description = checkTermDescription(r.description);
  const base = termSlugBase(checkTermSlug(r.slug), name, taxonomy);
  return { name, description, base, parent: r.parent_id };
}

/**
 * Creates categories or tags (count 0: events linked later refresh it). Parents and duplicate
 * names are checked as single writes check them; terms have their own AUTO_INCREMENT ids and
 * are read back by their unique (taxonomy, slug).
 */
export async function bulkCreateTerms(
  db: Db,
  taxonomy: Taxonomy,
  records: readonly BulkTermRecord[],
  options: Pick<BulkOptions, 'batchSize'> = {},
): Promise<number[]> {
  const ids: number[] = [];
  for await (const batch of batches(records, batchSizeOf(options, null))) {
    const offset = ids.length;
    const prepared = batch.map((r, i) => {
      try {
        return prepareTerm(taxonomy, r);
      } catch (error) {
        throw recordError(offset + i, error);
      }
    });
    const write = async (trx: Queryable): Promise<number[]> => {
      const parents: (number | null)[] = [];
      const batchNames = new Set<string>();
      for (const [i, p] of prepared.entries()) {
        try {
          const parent = await checkTermParent(trx, taxonomy, p.parent, null);
          await checkTermNameFree(trx, taxonomy, p.name, parent);
          // Two records of the batch with one name under one parent: the second is a duplicate.
          const key = `${parent ?? 0}|${p.name.toLowerCase()}`;
          if (batchNames.has(key)) throw invalid('name', 'a term with this name already exists');
          batchNames.add(key);
          parents.push(parent);
        } catch (error) {
          throw recordError(offset + i, error);
        }
      }
      const slugs = await assignSlugs(
        trx,
        { taxonomy },
        prepared.map((p) => p.base),
      );
      const rows = prepared.map((p, i) => ({
        taxonomy,
        name: p.name,
        slug: slugs[i],
        description: p.description,
        parent_id: parents[i],
        count: 0,
      }));
      await insertRows(trx, 'terms', rows);
      const bySlug = await termIdsBySlug(trx, taxonomy, slugs as string[]);
      return slugs.map((slug) => bySlug.get(slug) as number);
    };
    ids.push(...(await inBatch(db, offset, batch.length, write)));
  }
  return ids;
}
