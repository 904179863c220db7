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
import { organizerForEvent, type EventOrganizerInput } from './organizers';
import { has, modifiedNow } from './post-fields';
import { refreshTermCounts, termsForEvent } from './terms';
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
  const id = await ctx.db.transaction(async (trx) => {
    const values = await eventChanges(ctx, trx, input, null);
    assertCanCreate(ctx);
    assertCanAttribute(ctx, values.author_id);
    if (has(input, 'venue')) values.venue_id = await venueId(ctx, trx, input.venue);
    const stamps = modifiedNow(ctx.config.siteTimezone, ctx.now());
    const eventId = await insertPost(trx, 'events', { ...values, ...stamps });
    await writeLinks(ctx, trx, eventId, input, [], true);
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
  const id = await ctx.db.transaction(async (trx) => {
    const current = await lookup(trx, key);
    const changes = await eventChanges(ctx, trx, input, current);
    assertCanEdit(ctx, current);
    assertCanAttribute(ctx, changes.author_id);
    if (has(input, 'venue')) changes.venue_id = await venueId(ctx, trx, input.venue);
    const stamps = modifiedNow(ctx.config.siteTimezone, ctx.now());
    await updatePost(trx, 'events', current.id, { ...changes, ...stamps });
    const statusChanged = changes.status !== undefined && changes.status !== current.status;
    await writeLinks(ctx, trx, current.id, input, await termIdsOf(trx, current.id), statusChanged);
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
  const before = await ctx.db.transaction(async (trx) => {
    const current = await lookup(trx, key);
    assertCanDelete(ctx, current);
    if (current.status === 'trash' && !force) throw inTrash('event');
    const termIds = await termIdsOf(trx, current.id);
    if (force) await deletePost(trx, 'events', current.id);
    else {
      const stamps = modifiedNow(ctx.config.siteTimezone, ctx.now());
      await updatePost(trx, 'events', current.id, { status: 'trash', ...stamps });
    }
    // Counts are of published events: a trashed or deleted one no longer counts.
    if (termIds.length) await refreshTermCounts(trx, termIds);
    return current;
  });
  if (!force) return reread(ctx, before.id);
  refreshLoaders(ctx);
  return before;
}

async function lookup(q: Queryable, key: EventKey): Promise<EventRow> {
  const row =
    'id' in key
      ? await findById<EventRow>(q, 'events', key.id)
      : await findBySlug<EventRow>(q, 'events', key.slug);
  if (!row) throw notFound('event', 'id' in key ? key.id : key.slug);
  return row;
}

async function reread(ctx: AppContext, id: number): Promise<EventRow> {
  refreshLoaders(ctx);
  const row = await ctx.loaders.event.load(id);
  if (!row) throw new Error(`event ${id} vanished after its write`);
  return row;
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

/** Organizers, venue aside (it is a column), and categories/tags present in the input. */
async function writeLinks(
  ctx: AppContext,
  q: Queryable,
  eventId: number,
  input: EventInput,
  termsBefore: number[],
  statusChanged: boolean,
): Promise<void> {
  if (has(input, 'organizer')) {
    const ids: number[] = [];
    for (const item of input.organizer ?? []) {
      if (isBlank(item)) continue;
      const id = await organizerForEvent(ctx, q, item);
      if (!ids.includes(id)) ids.push(id);
    }
    await setOrganizerLinks(q, eventId, ids);
  }
  const taxonomies: [keyof EventInput & ('categories' | 'tags'), Taxonomy][] = [
    ['categories', 'category'],
    ['tags', 'tag'],
  ];
  let termsChanged = false;
  for (const [field, taxonomy] of taxonomies) {
    if (!has(input, field)) continue;
    const items = (input[field] ?? []).map((s) => s.trim()).filter((s) => s !== '');
    const ids = items.length ? await termsForEvent(ctx, q, taxonomy, items) : [];
    await setTermLinks(q, eventId, taxonomy, ids);
    termsChanged = true;
  }
  if (!termsChanged && !statusChanged) return;
  // Old ∪ new: terms the event left lose it from their count, new ones gain it.
  const affected = [...new Set([...termsBefore, ...(await termIdsOf(q, eventId))])];
  if (affected.length) await refreshTermCounts(q, affected);
}

async function termIdsOf(q: Queryable, eventId: number): Promise<number[]> {
  return (await linkedTerms(q, [eventId])).map((t) => t.id);
}
