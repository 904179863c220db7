import type { Config } from '../../config';
import type { Db, PostStatus, PostTable, Queryable, Taxonomy } from '../../db';
import { EventDateReader, type EventWriter } from '../../events';
import { firstFreeSlug } from '../../lib';
import { checkAuthor, modifiedNow, slugsLike } from '../../posts';
import { termSlugsLike } from '../../terms';
import { ensureBuiltinAdmin, findUserById, isRole, viewerFor, type ViewerUser } from '../../users';
import { takenSlugs, takenTermSlugs } from '../store/bulk';
import type { BulkOptions } from './batches';

/**
 * What bulk writers of events, venues, organizers and terms share. The rules themselves are the
 * domains' (`events/rules.ts`, `places/rules.ts`, `terms/rules.ts`): a bulk record is checked
 * exactly as a single write of the same fields by the import's author.
 */

/** Publishing fields every bulk post record may carry (events, venues, organizers). */
export interface BulkPublishing {
  slug?: string | null;
  description?: string | null;
  excerpt?: string | null;
  /** Default `publish` (for an author who may publish); `trash` is not importable. */
  status?: PostStatus | null;
  /** Publication instant, UTC; default: the import's clock. */
  date_utc?: string | null;
}

/** What every record of one import shares: its author, clock and write stamps. */
export interface ImportContext {
  config: Config;
  author: number;
  /** The author as a single write's caller, for the field rules (status scale-back, …). */
  writer: EventWriter;
  /** `modified`/`modified_utc` of the import. */
  stamps: { modified: string; modified_utc: string };
}

/** The import's author: `authorId` (an existing user), else the built-in administrator. */
async function authorOf(db: Db, options: BulkOptions, now: Date): Promise<ViewerUser> {
  if (options.authorId === undefined) return ensureBuiltinAdmin(db, now);
  const id = await checkAuthor(db, options.authorId);
  const row = await findUserById(db, id);
  const role = row && isRole(row.role) ? row.role : 'subscriber';
  return { id, login: row?.login ?? '', role };
}

export async function importContext(
  db: Db,
  config: Config,
  options: BulkOptions,
): Promise<ImportContext> {
  const now = options.now ?? new Date();
  const author = await authorOf(db, options, now);
  const zone = config.siteTimezone;
  return {
    config,
    author: author.id,
    writer: {
      viewer: viewerFor(author),
      siteZone: zone,
      now,
      dates: new EventDateReader(zone, now),
    },
    stamps: modifiedNow(zone, now),
  };
}

/** Where slugs must be unique: a post table, or the terms of one taxonomy. */
export type SlugSpace = { table: PostTable } | { taxonomy: Taxonomy };

/**
 * Unique slugs for one batch, in order: a base free in the database and in the batch is kept
 * (one indexed lookup for the whole batch: the common case); a taken one gets the first free
 * `-N` suffix, like single writes, looked up for that base alone. The unique indexes still stand
 * guard: a concurrent writer taking the same slug fails the batch's run, which `inBatch` rolls
 * back and runs again, and the new run sees that slug taken.
 */
export async function assignSlugs(
  q: Queryable,
  space: SlugSpace,
  bases: readonly string[],
): Promise<string[]> {
  const taken =
    'table' in space
      ? await takenSlugs(q, space.table, bases)
      : await takenTermSlugs(q, space.taxonomy, bases);
  const used = new Set<string>();
  const out: string[] = [];
  for (const base of bases) {
    let slug = base;
    if (taken.has(base) || used.has(base)) {
      const existing =
        'table' in space
          ? await slugsLike(q, space.table, base)
          : await termSlugsLike(q, space.taxonomy, base);
      slug = firstFreeSlug(base, [...existing, ...used]);
    }
    used.add(slug);
    out.push(slug);
  }
  return out;
}
