import type { Config } from '../../config/config';
import type { Db } from '../../db/knex';
import { InvalidParamError } from '../../lib/errors';
import { utcToLocal } from '../../lib/dates';
import { firstFreeSlug, toSlug } from '../../lib/slug';
import { takenSlugs, takenTermSlugs } from '../store/bulk';
import { slugsLike } from '../../posts/store/posts';
import type { Queryable } from '../../db/queryable';
import { LISTABLE_STATUSES, type PostStatus, type PostTable, type Taxonomy } from '../../db/rows';
import { termSlugsLike } from '../../terms/store/terms';
import type { BulkOptions } from './batches';
import { modifiedNow, requireText, richText } from '../../posts/fields';
import { ensureBuiltinAdmin } from '../../users/users';

/** The record rules bulk writers of events, venues, organizers and terms share. */

/** Publishing fields every bulk post record may carry (events, venues, organizers). */
export interface BulkPublishing {
  slug?: string | null;
  description?: string | null;
  excerpt?: string | null;
  /** Default `publish`; `trash` is not importable. */
  status?: PostStatus | null;
  author_id?: number | null;
  /** Publication instant, UTC `YYYY-MM-DD HH:MM:SS`; default: the import's clock. */
  date_utc?: string | null;
}

const SQL_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** What every record of one import shares: its author default and its write stamps. */
export interface ImportContext {
  config: Config;
  author: number;
  /** `modified`/`modified_utc` of the import, also the default publication date. */
  stamps: { modified: string; modified_utc: string };
}

export async function importContext(
  db: Db,
  config: Config,
  options: BulkOptions,
): Promise<ImportContext> {
  const now = options.now ?? new Date();
  const author = options.authorId ?? (await ensureBuiltinAdmin(db, now)).id;
  return { config, author, stamps: modifiedNow(config.siteTimezone, now) };
}

/** The publishing columns of one record (title, slug and id are the caller's). */
export function publishingColumns(
  ctx: ImportContext,
  record: BulkPublishing,
): Record<string, unknown> {
  const status = record.status ?? 'publish';
  if (!LISTABLE_STATUSES.includes(status)) {
    throw new InvalidParamError({ status: `must be one of ${LISTABLE_STATUSES.join(', ')}` });
  }
  const { config, stamps } = ctx;
  let published = { date: stamps.modified, date_utc: stamps.modified_utc };
  if (record.date_utc) {
    if (!SQL_DATE_TIME.test(record.date_utc)) {
      throw new InvalidParamError({ date_utc: 'must be YYYY-MM-DD HH:MM:SS' });
    }
    published = {
      date: utcToLocal(record.date_utc, config.siteTimezone),
      date_utc: record.date_utc,
    };
  }
  const excerpt = richText(record.excerpt);
  // MySQL TEXT holds 65,535 bytes (single writes check the same).
  if (Buffer.byteLength(excerpt) > 65535) {
    throw new InvalidParamError({ excerpt: 'must be at most 65535 bytes' });
  }
  return {
    status,
    description: richText(record.description),
    excerpt,
    author_id: record.author_id ?? ctx.author,
    ...published,
    ...stamps,
    password: '',
    image_id: null,
  };
}

/** A required plain-text name, at most `max` characters. */
export function checkedName(field: string, value: string | null | undefined, max: number): string {
  const text = requireText(field, value);
  if (text.length > max && Array.from(text).length > max) {
    throw new InvalidParamError({ [field]: `must be at most ${max} characters` });
  }
  return text;
}

/** The slug a record asks for, else one from its name (as single writes do). */
export function slugBase(requested: string | null | undefined, name: string, fallback: string) {
  if (requested) {
    const slug = toSlug(requested);
    if (slug === '') throw new InvalidParamError({ slug: 'must contain letters or digits' });
    return slug;
  }
  return toSlug(name) || fallback;
}

/** Where slugs must be unique: a post table, or the terms of one taxonomy. */
export type SlugSpace = { table: PostTable } | { taxonomy: Taxonomy };

/**
 * Unique slugs for one batch, in order: a base free in the database and in the batch is kept
 * (one indexed lookup for the whole batch: the common case); a taken one gets the first free
 * `-N` suffix, like single writes, looked up for that base alone. The unique indexes still stand
 * guard: a concurrent writer taking the same slug fails the batch, which then rolls back.
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
