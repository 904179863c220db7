import DataLoader from 'dataloader';
import type { AppContext } from '../context';
import type { EventRow } from '../db';
import {
  connectionOf,
  connectionWindow,
  orderTag,
  sortKeys,
  type Connection,
  type ConnectionArgs,
  type ConnectionWindow,
  type OrderInput,
} from '../posts';
import { resolveEventFilter, withoutEmptyLists } from './filters';
import type { EventListArgs } from './list-args';
import { argsOf, narrowed, type NestedEventsKey } from './nested-lists';
import { primed } from './queries';
import { countEventsOfEach } from './store/event-groups';
import { countEvents, type EventListFilter } from './store/event-list';
import {
  eventKeyColumns,
  findEventKeysetPage,
  findEventKeysetPagesOfEach,
  type EventOrderField,
  type KeyedEvents,
} from './store/keyset';

/**
 * Event connections (`events_connection`, `Venue.events_connection`, …): the events list's
 * filter and visibility (`resolveEventFilter`), read in keyset pages in the order asked, so a
 * walk never repeats or skips an event present throughout. The total is counted only when asked.
 */

export type { EventOrderField };

export interface EventConnectionArgs extends ConnectionArgs {
  order_by?: readonly OrderInput<EventOrderField>[] | null;
}

export type EventConnectionPage = Connection<EventRow>;

interface Plan {
  window: ConnectionWindow;
  columns: ReturnType<typeof eventKeyColumns>;
}

/** The order and the window: checked before any statement runs. */
function plan(ctx: AppContext, args: EventConnectionArgs): Plan {
  const keys = sortKeys(args.order_by, 'START', 'ID');
  const columns = eventKeyColumns(keys);
  const numeric = columns.map((c) => c.numeric === true);
  const window = connectionWindow(ctx.config, args, orderTag('event', keys), numeric);
  return { window, columns };
}

function page(
  ctx: AppContext,
  read: KeyedEvents,
  window: ConnectionWindow,
  count: () => Promise<number>,
): EventConnectionPage {
  const rows = primed(ctx, read.read);
  return connectionOf(
    rows.map((row, i) => ({ row, key: read.keys[i]! })),
    window,
    count,
  );
}

/** One page of the events list's filter (`raw` without page/per_page) after or before a cursor. */
export async function eventsConnection(
  ctx: AppContext,
  raw: EventListArgs & EventConnectionArgs,
): Promise<EventConnectionPage> {
  const { first, after, last, before, order_by, ...list } = raw;
  const { window, columns } = plan(ctx, { first, after, last, before, order_by });
  const { filter } = await resolveEventFilter(
    ctx,
    withoutEmptyLists({ ...list, page: null, per_page: null }),
  );
  const read = await findEventKeysetPage(
    ctx.db,
    filter,
    columns,
    { cursor: window.cursor, backward: window.backward },
    window.limit + 1,
  );
  return page(ctx, read, window, () => countEvents(ctx.db, filter));
}

/** The events of a venue, organizer, category or tag as a connection. */
export interface NestedEventConnectionKey {
  of: NestedEventsKey['of'];
  /** The parent's id. */
  id: number;
  /** Terms: the term's published events, the plan hint of its page. */
  termEvents?: number | null;
  args: EventConnectionArgs;
}

function parentKey(key: NestedEventConnectionKey): NestedEventsKey {
  return { of: key.of, id: key.id, termEvents: key.termEvents ?? null };
}

async function one(
  ctx: AppContext,
  key: NestedEventConnectionKey,
): Promise<EventConnectionPage | Error> {
  try {
    return await eventsConnection(ctx, { ...argsOf(parentKey(key)), ...key.args });
  } catch (error) {
    return error as Error;
  }
}

/**
 * Each key's connection, or the error its own `eventsConnection` would throw (in key order).
 * Parents of one relation with the same order, direction and size share a batch: one filter
 * resolution, one statement of pages (each part its own cursor) and, when a `total_count` is
 * asked, one statement of totals for the whole batch.
 */
export async function nestedEventConnections(
  ctx: AppContext,
  keys: readonly NestedEventConnectionKey[],
): Promise<(EventConnectionPage | Error)[]> {
  const out: (EventConnectionPage | Error)[] = new Array(keys.length);
  const groups = new Map<string, { i: number; plan: Plan }[]>();
  keys.forEach((key, i) => {
    try {
      const p = plan(ctx, key.args);
      const id = `${key.of}|${p.window.tag}|${p.window.backward}|${p.window.limit}`;
      groups.set(id, [...(groups.get(id) ?? []), { i, plan: p }]);
    } catch (error) {
      out[i] = error as Error;
    }
  });
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const answers = await connectGroup(
        ctx,
        group.map((g) => keys[g.i]!),
        group[0]!.plan,
        group.map((g) => g.plan.window),
      );
      group.forEach((g, j) => (out[g.i] = answers[j]!));
    }),
  );
  return out;
}

async function connectGroup(
  ctx: AppContext,
  keys: readonly NestedEventConnectionKey[],
  shared: Plan,
  windows: readonly ConnectionWindow[],
): Promise<(EventConnectionPage | Error)[]> {
  // A single parent reads as its own connection does (cached total included).
  if (keys.length === 1) return [await one(ctx, keys[0]!)];
  let filter: EventListFilter;
  try {
    const ids = [...new Set(keys.map((k) => k.id))];
    filter = (await resolveEventFilter(ctx, withoutEmptyLists(argsOf(parentKey(keys[0]!), ids))))
      .filter;
  } catch {
    // One parent's problem (a record gone meanwhile) must not fail its siblings.
    return Promise.all(keys.map((key) => one(ctx, key)));
  }
  const filters = keys.map((key) => narrowed(filter, parentKey(key)));
  const reads = await findEventKeysetPagesOfEach(
    ctx.db,
    filters.map((f, i) => ({ filter: f, cursor: windows[i]!.cursor })),
    shared.columns,
    shared.window.backward,
    shared.window.limit + 1,
  );
  let totals: Promise<number[]> | undefined;
  const total = async (i: number): Promise<number> =>
    (await (totals ??= countEventsOfEach(ctx.db, filters)))[i]!;
  return keys.map((_, i) => page(ctx, reads[i]!, windows[i]!, () => total(i)));
}

type NestedLoader = DataLoader<NestedEventConnectionKey, EventConnectionPage, string>;

/** Per request (the context is the request's): every parent of a level asks one loader. */
const loaders = new WeakMap<AppContext, NestedLoader>();

/** One parent's events connection, batched with its siblings' (`nestedEventConnections`). */
export function nestedEventConnection(
  ctx: AppContext,
  key: NestedEventConnectionKey,
): Promise<EventConnectionPage> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((keys) => nestedEventConnections(ctx, keys), {
      cacheKeyFn: (k) => JSON.stringify([k.of, k.id, k.args]),
    });
    loaders.set(ctx, loader);
  }
  return loader.load(key);
}
