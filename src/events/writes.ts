import { assertCanAttribute, assertCanCreate, assertCanDelete, assertCanEdit } from '../users';
import type { AppContext } from '../context';
import { inTrash, notFound, primeAll } from '../lib';
import {
  deletePost,
  findById,
  findBySlug,
  has,
  insertPost,
  modifiedNow,
  transactWithImages,
  updatePost,
} from '../posts';
import { transact, type EventRow, type NameLock, type Queryable, type VenueRow } from '../db';
import { eventChanges, type EventInput } from './input';
import { isBlank, termIdsOf, writeLinks } from './links';
import { nameLocks, venueRowForEvent, type EventVenueInput } from '../places';
import { lockTermRows, moveTermCounts } from '../terms';

/**
 * Event writes (docs/contract.md §7). Each runs in one transaction that validates everything before
 * or while writing, so a rejected write changes nothing; an update's fresh row is read after the
 * commit, a create answers with what its transaction wrote and read. Order of checks: unknown event
 * (404), invalid input (400), then who may write (401 anonymous, 403 not allowed —
 * `src/users/permissions.ts`), then the trash (410).
 */

/** How a write finds its event: by id or by slug (the slug routes). */
export type EventKey = { id: number } | { slug: string };

export async function createEvent(ctx: AppContext, input: EventInput): Promise<EventRow> {
  const locks = { names: inlineNames(input), retryNames: slugName(input.slug || input.title) };
  const created = await transactWithImages(ctx, locks, async (trx) => {
    const values = await eventChanges(ctx, trx, input, null);
    assertCanCreate(ctx);
    assertCanAttribute(ctx, values.author_id);
    const venue = has(input, 'venue') ? await venueOf(ctx, trx, input.venue) : null;
    if (has(input, 'venue')) values.venue_id = venue?.id ?? null;
    const columns = { ...values, ...modifiedNow(ctx.config.siteTimezone, ctx.now()) };
    const { id, slug } = await insertPost(trx, 'events', { ...columns, slug: values.slug! });
    const counted = { terms: [], published: false, fresh: true };
    const links = await writeLinks(ctx, trx, id, input, counted, values.status === 'publish');
    return { row: { ...columns, id, slug } as EventRow, venue, links };
  });
  // The answer shows what the transaction wrote, and rows it read (linked records, the terms
  // with their counts as its commit left them): nothing is read back.
  ctx.resetLoaders();
  const { row, venue, links } = created;
  if (venue) primeAll(ctx.loaders.venue, [venue]);
  // A new event has no links but those written here.
  if (links.terms) {
    ctx.loaders.eventLinks.prime(row.id, {
      organizers: links.organizers ?? [],
      terms: links.terms,
    });
  }
  if (!storedAsGiven(row)) return loaded(ctx, row.id);
  primeAll(ctx.loaders.event, [row]);
  return row;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Does the database give back the values as written? Not text with a lone UTF-16 surrogate:
 * each driver stores (and so answers) its own replacement characters, so such a row is read.
 */
function storedAsGiven(row: EventRow): boolean {
  return Object.values(row).every((v) => typeof v !== 'string' || !LONE_SURROGATE.test(v));
}

/** Changes only the fields present in `input` (docs/contract.md §7, partial updates). */
export async function updateEvent(
  ctx: AppContext,
  key: EventKey,
  input: EventInput,
): Promise<EventRow> {
  const locks = { names: inlineNames(input), retryNames: slugName(input.slug) };
  const id = await transactWithImages(ctx, locks, async (trx) => {
    const current = await lookup(trx, key);
    const changes = await eventChanges(ctx, trx, input, current);
    assertCanEdit(ctx, current);
    assertCanAttribute(ctx, changes.author_id);
    if (has(input, 'venue')) changes.venue_id = (await venueOf(ctx, trx, input.venue))?.id ?? null;
    const stamps = modifiedNow(ctx.config.siteTimezone, ctx.now());
    await updatePost(trx, 'events', current.id, { ...changes, ...stamps });
    const counted = {
      terms: await termIdsOf(trx, current.id),
      published: current.status === 'publish',
      fresh: false,
    };
    const published = (changes.status ?? current.status) === 'publish';
    await writeLinks(ctx, trx, current.id, input, counted, published);
    return current.id;
  });
  return reread(ctx, id);
}

/**
 * Moves the event to the trash, or with `force` deletes it for good (its links go with it) and
 * answers the row as it was. Deleting a trashed event without `force` is 410.
 */
export async function deleteEvent(
  ctx: AppContext,
  key: EventKey,
  force: boolean,
): Promise<EventRow> {
  const before = await transact(ctx.db, async (trx) => {
    const current = await lookup(trx, key);
    assertCanDelete(ctx, current);
    if (current.status === 'trash' && !force) throw inTrash('event');
    // Counts are of published events: a trashed or deleted one no longer counts.
    const counted = current.status === 'publish' ? await termIdsOf(trx, current.id) : [];
    await lockTermRows(trx, counted);
    if (force) await deletePost(trx, 'events', current.id);
    else {
      const stamps = modifiedNow(ctx.config.siteTimezone, ctx.now());
      await updatePost(trx, 'events', current.id, { status: 'trash', ...stamps });
    }
    await moveTermCounts(trx, counted, []);
    return current;
  });
  if (!force) return reread(ctx, before.id);
  ctx.resetLoaders();
  return before;
}

/** The event a write changes, locked until its transaction ends (`retry.ts`). */
async function lookup(q: Queryable, key: EventKey): Promise<EventRow> {
  const row =
    'id' in key
      ? await findById<EventRow>(q, 'events', key.id, true)
      : await findBySlug<EventRow>(q, 'events', key.slug, true);
  if (!row) throw notFound('event', 'id' in key ? key.id : key.slug);
  return row;
}

async function reread(ctx: AppContext, id: number): Promise<EventRow> {
  ctx.resetLoaders();
  return loaded(ctx, id);
}

async function loaded(ctx: AppContext, id: number): Promise<EventRow> {
  const row = await ctx.loaders.event.load(id);
  if (!row) throw new Error(`event ${id} vanished after its write`);
  return row;
}

/**
 * The title or slug a new slug is made from. The unique index on slugs is the guarantee; when
 * parallel writes of one title did collide on it, their next runs lock this name first
 * (`retryNames`), so they pick their `-2`, `-3` … in turn instead of colliding again.
 */
function slugName(source: string | null | undefined): NameLock[] {
  return source ? [{ scope: 'events', name: source }] : [];
}

/** Venues and organizers the write may create by name: their names are locked first. */
function inlineNames(input: EventInput): NameLock[] {
  const named = (item: { id?: number | null } | null | undefined): boolean =>
    !!item && (item.id === undefined || item.id === null);
  const venue = input.venue && named(input.venue) ? nameLocks('venues', input.venue.venue) : [];
  const organizers = (input.organizer ?? [])
    .filter(named)
    .flatMap((item) => nameLocks('organizers', item.organizer));
  return [...venue, ...organizers];
}

async function venueOf(
  ctx: AppContext,
  q: Queryable,
  input: EventVenueInput | null | undefined,
): Promise<VenueRow | null> {
  return input && !isBlank(input) ? venueRowForEvent(ctx, q, input) : null;
}
