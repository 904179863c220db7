import type { AppContext } from '../context';
import { envelope } from '../posts';
import { resolveEventFilter, withoutEmptyLists } from './filters';
import type { EventListArgs } from './list-args';
import { echo, listEvents, primed, type EventList } from './queries';
import { countEventsOfEach, findEventPagesOfEach } from './store/event-groups';
import type { EventListFilter } from './store/event-list';

/**
 * The events of a venue, organizer, category or tag (`Venue.events`, `Tag.events`, …) for many
 * parents at once, as the per-request loader asks for them: one filter resolution, one
 * statement of totals and one of pages for all the parents of a level, instead of a list per
 * parent. Each parent's list is the one `listEvents` answers for `{venue: [id]}` (or
 * `organizer`, `categories`, `tags`) with the same page: the same filter (visibility included,
 * from `resolveEventFilter`), rows, total, links and errors.
 */

export type NestedOf = 'venue' | 'organizer' | 'categories' | 'tags';

export interface NestedEventsKey {
  of: NestedOf;
  /** The parent's id. */
  id: number;
  page?: number | null;
  per_page?: number | null;
  /** Terms: the term's published events (`terms.count`), the plan hint of its page. */
  termEvents?: number | null;
}

/** Keys asking for the same page of the same relation share one batch. */
function groupKey(key: NestedEventsKey): string {
  return `${key.of}:${String(key.page)}:${String(key.per_page)}`;
}

/** The list arguments the parent's own list would be asked with. */
export function argsOf(key: NestedEventsKey, ids: readonly number[] = [key.id]): EventListArgs {
  const page = { page: key.page, per_page: key.per_page };
  if (key.of === 'categories' || key.of === 'tags') return { [key.of]: ids.map(String), ...page };
  return { [key.of]: [...ids], ...page };
}

/** The parent's filter: the batch's, narrowed to this parent. */
export function narrowed(filter: EventListFilter, key: NestedEventsKey): EventListFilter {
  switch (key.of) {
    case 'categories':
      return { ...filter, categoryIds: [key.id], termEvents: key.termEvents ?? null };
    case 'tags':
      return { ...filter, tagIds: [key.id], termEvents: key.termEvents ?? null };
    case 'venue':
      return { ...filter, venueIds: [key.id] };
    case 'organizer':
      return { ...filter, organizerIds: [key.id] };
  }
}

/** Each key's list, or the error its own `listEvents` would have thrown (in key order). */
export async function listNestedEvents(
  ctx: AppContext,
  keys: readonly NestedEventsKey[],
): Promise<(EventList | Error)[]> {
  const groups = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const group = groups.get(groupKey(key)) ?? [];
    group.push(i);
    groups.set(groupKey(key), group);
  });
  const out: (EventList | Error)[] = new Array(keys.length);
  await Promise.all(
    [...groups.values()].map(async (positions) => {
      const group = positions.map((i) => keys[i]!);
      const lists = await listGroup(ctx, group);
      positions.forEach((i, j) => (out[i] = lists[j]!));
    }),
  );
  return out;
}

async function one(ctx: AppContext, key: NestedEventsKey): Promise<EventList | Error> {
  try {
    return await listEvents(ctx, argsOf(key));
  } catch (error) {
    return error as Error;
  }
}

async function listGroup(
  ctx: AppContext,
  keys: readonly NestedEventsKey[],
): Promise<(EventList | Error)[]> {
  // A single parent reads as its own list does (cached total included).
  if (keys.length === 1) return [await one(ctx, keys[0]!)];
  let resolved: Awaited<ReturnType<typeof resolveEventFilter>>;
  try {
    const ids = [...new Set(keys.map((k) => k.id))];
    resolved = await resolveEventFilter(ctx, withoutEmptyLists(argsOf(keys[0]!, ids)));
  } catch {
    // One parent's problem (a record gone meanwhile) must not fail its siblings: each answers
    // as its own list would.
    return Promise.all(keys.map((key) => one(ctx, key)));
  }
  const { filter, paged, dates } = resolved;
  const filters = keys.map((key) => narrowed(filter, key));
  const totals = await countEventsOfEach(ctx.db, filters);
  const reading = filters.flatMap((f, i) => (totals[i]! > paged.offset ? [i] : []));
  const pages = reading.length
    ? await findEventPagesOfEach(
        ctx.db,
        reading.map((i) => filters[i]!),
        paged.perPage,
        paged.offset,
      )
    : [];
  const rows = new Map(reading.map((i, j) => [i, primed(ctx, pages[j]!)]));
  return keys.map((key, i) => {
    try {
      const args = withoutEmptyLists(argsOf(key));
      const env = envelope(
        ctx.config,
        'event',
        'events',
        paged,
        totals[i]!,
        echo(ctx, args, dates),
        ctx.restNamespace,
      );
      return { events: rows.get(i) ?? [], ...env };
    } catch (error) {
      return error as Error;
    }
  });
}
