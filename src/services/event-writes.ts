import {
  assertCanAttribute,
  assertCanCreate,
  assertCanDelete,
  assertCanEdit,
} from '../auth/permissions';
import { refreshLoaders, type AppContext } from '../context';
import { inTrash, notFound } from '../errors';
import { linkedTerms, setOrganizerLinks, setTermLinks } from '../repositories/links';
import { deletePost, findById, findBySlug, insertPost, updatePost } from '../repositories/posts';
import type { Queryable } from '../repositories/queryable';
import type { EventRow, Taxonomy } from '../repositories/rows';
import { eventChanges, type EventInput } from './event-input';
import { nameLocks } from './linked-posts';
import { organizerForEvent, type EventOrganizerInput } from './organizers';
import { has, modifiedNow } from './post-fields';
import { transact, type NameLock } from './retry';
import { lockTermRows, moveTermCounts, termsForEvent } from './terms';
import { venueForEvent, type EventVenueInput } from './venues';

/**
 * Event writes (CONTRACT §4). Each runs in one transaction that validates everything before or
 * while writing, so a rejected write changes nothing; the fresh row is read after the commit.
 * Order of checks: unknown event (404), invalid input (400), then who may
 * write (401 anonymous, 403 not allowed — `auth/permissions`), then the trash (410).
 */

/** How a write finds its event: by id or by slug (the slug routes). */
export type EventKey = { id: number } | { slug: string };

export async function createEvent(ctx: AppContext, input: EventInput): Promise<EventRow> {
  const names = [...slugName(input.slug || input.title), ...inlineNames(input)];
  const id = await transact(ctx.db, { names }, async (trx) => {
    const values = await eventChanges(ctx, trx, input, null);
    assertCanCreate(ctx);
    assertCanAttribute(ctx, values.author_id);
    if (has(input, 'venue')) values.venue_id = await venueId(ctx, trx, input.venue);
    const stamps = modifiedNow(ctx.config.siteTimezone, ctx.now());
    const eventId = await insertPost(trx, 'events', { ...values, ...stamps });
    const counted = { terms: [], published: false, fresh: true };
    await writeLinks(ctx, trx, eventId, input, counted, values.status === 'publish');
    return eventId;
  });
  return reread(ctx, id);
}

/** Changes only the fields present in `input` (CONTRACT §4, partial updates). */
export async function updateEvent(
  ctx: AppContext,
  key: EventKey,
  input: EventInput,
): Promise<EventRow> {
  const names = [...slugName(input.slug), ...inlineNames(input)];
  const id = await transact(ctx.db, { names }, async (trx) => {
    const current = await lookup(trx, key);
    const changes = await eventChanges(ctx, trx, input, current);
    assertCanEdit(ctx, current);
    assertCanAttribute(ctx, changes.author_id);
    if (has(input, 'venue')) changes.venue_id = await venueId(ctx, trx, input.venue);
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
  refreshLoaders(ctx);
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
  refreshLoaders(ctx);
  const row = await ctx.loaders.event.load(id);
  if (!row) throw new Error(`event ${id} vanished after its write`);
  return row;
}

/**
 * The title or slug a new slug is made from: locked first, so that parallel creates of one title
 * pick their `-2`, `-3` … in turn instead of colliding on the unique index and retrying.
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

/** An input with nothing in it (`{}`, `{id: 0}`) means "no venue/organizer", like null. */
function isBlank(input: EventVenueInput | EventOrganizerInput): boolean {
  return Object.values(input).every((v) => v === null || v === undefined || v === 0 || v === '');
}

async function venueId(
  ctx: AppContext,
  q: Queryable,
  input: EventVenueInput | null | undefined,
): Promise<number | null> {
  return input && !isBlank(input) ? venueForEvent(ctx, q, input) : null;
}

/**
 * What an event counted for before a write: its terms, and whether it was published; `fresh`
 * when it was inserted by this write (it has no links to replace).
 */
interface Counted {
  terms: number[];
  published: boolean;
  fresh: boolean;
}

/**
 * Organizers, venue aside (it is a column), and categories/tags present in the input; then the
 * counts of the terms the event joined or left, or all of its terms when it was published or
 * unpublished.
 */
async function writeLinks(
  ctx: AppContext,
  q: Queryable,
  eventId: number,
  input: EventInput,
  was: Counted,
  published: boolean,
): Promise<void> {
  if (has(input, 'organizer')) {
    const ids: number[] = [];
    for (const item of input.organizer ?? []) {
      if (isBlank(item)) continue;
      const id = await organizerForEvent(ctx, q, item);
      if (!ids.includes(id)) ids.push(id);
    }
    await setOrganizerLinks(q, eventId, ids, was.fresh);
  }
  const taxonomies: [keyof EventInput & ('categories' | 'tags'), Taxonomy][] = [
    ['categories', 'category'],
    ['tags', 'tag'],
  ];
  const wanted: [Taxonomy, number[]][] = [];
  for (const [field, taxonomy] of taxonomies) {
    if (!has(input, field)) continue;
    const items = (input[field] ?? []).map((s) => s.trim()).filter((s) => s !== '');
    wanted.push([taxonomy, items.length ? await termsForEvent(ctx, q, taxonomy, items) : []]);
  }
  if (!wanted.length && was.published === published) return;
  // Every term whose count may change is locked before linking, so parallel writes on one term
  // queue instead of deadlocking on the links' foreign-key locks.
  await lockTermRows(q, [...was.terms, ...wanted.flatMap(([, ids]) => ids)]);
  for (const [taxonomy, ids] of wanted) await setTermLinks(q, eventId, taxonomy, ids, was.fresh);
  // A fresh event's links are exactly the ones just written: no need to read them back.
  const linked = wanted.flatMap(([, ids]) => ids);
  const now = !wanted.length ? was.terms : was.fresh ? linked : await termIdsOf(q, eventId);
  await moveTermCounts(q, was.published ? was.terms : [], published ? now : []);
}

async function termIdsOf(q: Queryable, eventId: number): Promise<number[]> {
  return (await linkedTerms(q, [eventId])).map((t) => t.id);
}
