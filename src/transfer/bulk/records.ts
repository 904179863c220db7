import type { Config } from '../../config/config';
import { dialectOf, type Db } from '../../db/knex';
import { InvalidParamError } from '../../lib/errors';
import { allocatePostIds, insertRows, termIdsBySlug } from '../store/bulk';
import type { Queryable } from '../../db/queryable';
import type { Taxonomy } from '../../db/rows';
import { existingTermIds } from '../../terms/store/terms';
import { batches, batchSizeOf, inBatch, recordError, type BulkOptions } from './batches';
import {
  assignSlugs,
  checkedName,
  importContext,
  publishingColumns,
  slugBase,
  type BulkPublishing,
} from './common';
import { checkWebsite } from '../../posts/fields';
import { coordinate, VENUE_TEXT_COLUMNS, type VenueFields } from '../../places/venues';

/**
 * Bulk creation of the records events link to: venues, organizers, categories and tags. Unlike
 * single writes these do not de-duplicate by name: an import creates what it is given (an
 * importer that wants reuse looks names up first). Each returns the new ids in record order.
 */

export interface BulkVenueRecord extends BulkPublishing, VenueFields {
  venue: string;
}

export interface BulkOrganizerRecord extends BulkPublishing {
  organizer: string;
  phone?: string | null;
  website?: string | null;
  email?: string | null;
}

export interface BulkTermRecord {
  name: string;
  slug?: string | null;
  description?: string | null;
  /** Categories only: an existing category id (create parents in an earlier call). */
  parent_id?: number | null;
}

function venueColumns(r: BulkVenueRecord): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  for (const c of VENUE_TEXT_COLUMNS) cols[c] = r[c] ?? '';
  return {
    ...cols,
    website: checkWebsite('website', r.website),
    show_map: r.show_map ?? true,
    show_map_link: r.show_map_link ?? true,
    geo_lat: coordinate('geo_lat', r.geo_lat, 90),
    geo_lng: coordinate('geo_lng', r.geo_lng, 180),
  };
}

function organizerColumns(r: BulkOrganizerRecord): Record<string, unknown> {
  return {
    phone: r.phone ?? '',
    website: checkWebsite('website', r.website),
    email: r.email ?? '',
  };
}

/** Shared path of venues and organizers: validate a batch, then ids, slugs, one insert. */
async function bulkCreatePosts<R extends BulkPublishing>(
  db: Db,
  config: Config,
  table: 'venues' | 'organizers',
  records: Iterable<R> | AsyncIterable<R>,
  nameOf: (r: R) => string | null | undefined,
  own: (r: R) => Record<string, unknown>,
  options: BulkOptions,
): Promise<number[]> {
  const ctx = await importContext(db, config, options);
  const type = table === 'venues' ? 'venue' : 'organizer';
  const ids: number[] = [];
  const size = batchSizeOf(options, dialectOf(config.databaseUrl));
  for await (const batch of batches(records, size)) {
    const offset = ids.length;
    const prepared = batch.map((r, i) => {
      try {
        const title = checkedName(type, nameOf(r), 500);
        const columns = { ...publishingColumns(ctx, r), title, ...own(r) };
        return { columns, base: slugBase(r.slug, title, type) };
      } catch (error) {
        throw recordError(offset + i, error);
      }
    });
    const write = async (trx: Queryable): Promise<number[]> => {
      const newIds = await allocatePostIds(trx, dialectOf(config.databaseUrl), type, batch.length);
      const slugs = await assignSlugs(
        trx,
        { table },
        prepared.map((p) => p.base),
      );
      const rows = prepared.map((p, i) => ({ id: newIds[i], slug: slugs[i], ...p.columns }));
      await insertRows(trx, table, rows);
      return newIds;
    };
    ids.push(...(await inBatch(db, offset, batch.length, write)));
    options.onProgress?.(ids.length, options.total ?? null);
  }
  return ids;
}

export function bulkCreateVenues(
  db: Db,
  config: Config,
  records: Iterable<BulkVenueRecord> | AsyncIterable<BulkVenueRecord>,
  options: BulkOptions = {},
): Promise<number[]> {
  return bulkCreatePosts(db, config, 'venues', records, (r) => r.venue, venueColumns, options);
}

export function bulkCreateOrganizers(
  db: Db,
  config: Config,
  records: Iterable<BulkOrganizerRecord> | AsyncIterable<BulkOrganizerRecord>,
  options: BulkOptions = {},
): Promise<number[]> {
  return bulkCreatePosts(
    db,
    config,
    'organizers',
    records,
    (r) => r.organizer,
    organizerColumns,
    options,
  );
}

/**
 * Creates categories or tags (count 0: events linked later refresh it). Terms have their own
 * AUTO_INCREMENT ids; they are read back by their unique (taxonomy, slug).
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
        const name = checkedName('name', r.name, 200);
        const parent = taxonomy === 'category' ? (r.parent_id ?? null) : null;
        return { name, parent, base: slugBase(r.slug, name, taxonomy), r };
      } catch (error) {
        throw recordError(offset + i, error);
      }
    });
    const write = async (trx: Queryable): Promise<number[]> => {
      const parents = [...new Set(prepared.flatMap((p) => (p.parent === null ? [] : [p.parent])))];
      const known = await existingTermIds(trx, 'category', parents);
      const orphan = prepared.findIndex((p) => p.parent !== null && !known.has(p.parent));
      if (orphan >= 0) {
        const error = new InvalidParamError({ parent: 'must be an existing category id' });
        throw recordError(offset + orphan, error);
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
        description: p.r.description ?? '',
        parent_id: p.parent,
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
