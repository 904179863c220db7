import type { AppContext } from '../context';
import type { OrganizerRow, PostRow, VenueRow } from '../db';
import { primeAll } from '../lib';
import {
  connectionFromList,
  connectionOf,
  connectionWindow,
  orderTag,
  sortKeys,
  type Connection,
  type ConnectionArgs,
  type KeyValue,
  type OrderInput,
  type SortKey,
} from '../posts';
import { linkedListFilter, type LinkedListArgs } from './linked-post-list';
import type { LinkedInput, LinkedKind } from './linked-posts';
import { ORGANIZER_KIND } from './organizers';
import { countLinkedPosts, type LinkedTable } from './store/linked-post-list';
import { findLinkedKeysetPage, placeKeyColumns, type PlaceOrderField } from './store/keyset';
import { VENUE_KIND } from './venues';

/**
 * Venue and organizer connections: their lists' filter and visibility (`linkedListFilter`),
 * read in keyset pages; and the connection of an event's organizers, from the loader's rows.
 */

export type { PlaceOrderField };

export interface PlaceConnectionArgs extends ConnectionArgs {
  order_by?: readonly OrderInput<PlaceOrderField>[] | null;
}

export type VenueConnectionPage = Connection<VenueRow>;
export type OrganizerConnectionPage = Connection<OrganizerRow>;

function keysOf(args: PlaceConnectionArgs): SortKey<PlaceOrderField>[] {
  return sortKeys(args.order_by, 'NAME', 'ID');
}

/** Which values of the key are numbers (a cursor's are checked against them). */
function numericOf(table: LinkedTable, keys: readonly SortKey<PlaceOrderField>[]): boolean[] {
  return placeKeyColumns(table, keys).map((c) => c.numeric === true);
}

async function connection<Row extends PostRow>(
  ctx: AppContext,
  kind: LinkedKind<Row, LinkedInput>,
  raw: LinkedListArgs & PlaceConnectionArgs,
): Promise<Connection<Row>> {
  const { first, after, last, before, order_by, ...list } = raw;
  const keys = keysOf({ order_by });
  const window = connectionWindow(
    ctx.config,
    { first, after, last, before },
    orderTag(kind.resource, keys),
    numericOf(kind.table, keys),
  );
  const { filter } = await linkedListFilter(ctx, kind, { ...list, page: null, per_page: null });
  const rows = await findLinkedKeysetPage<Row>(
    ctx.db,
    kind.table,
    filter,
    placeKeyColumns(kind.table, keys),
    window,
    window.limit + 1,
  );
  primeAll(
    kind.loader(ctx),
    rows.map((r) => r.row),
  );
  return connectionOf(rows, window, () => countLinkedPosts(ctx.db, kind.table, filter));
}

export function venuesConnection(
  ctx: AppContext,
  args: LinkedListArgs & PlaceConnectionArgs,
): Promise<VenueConnectionPage> {
  return connection(ctx, VENUE_KIND, args);
}

export function organizersConnection(
  ctx: AppContext,
  args: LinkedListArgs & PlaceConnectionArgs,
): Promise<OrganizerConnectionPage> {
  return connection(ctx, ORGANIZER_KIND, args);
}

/** The key of a row in memory, as `placeKeyColumns` reads it in SQL. */
function keyOf(keys: readonly SortKey<PlaceOrderField>[]): (row: PostRow) => KeyValue[] {
  return (row) =>
    keys.map((k) =>
      k.field === 'NAME'
        ? row.title.toLowerCase()
        : k.field === 'MODIFIED'
          ? row.modified_utc
          : row.id,
    );
}

/** An event's organizers (already read and filtered by the caller's visibility) as a connection. */
export function organizerListConnection(
  ctx: AppContext,
  rows: readonly OrganizerRow[],
  args: PlaceConnectionArgs,
): OrganizerConnectionPage {
  const keys = keysOf(args);
  const window = connectionWindow(
    ctx.config,
    args,
    orderTag('event-organizer', keys),
    numericOf('organizers', keys),
  );
  return connectionFromList(
    rows,
    keyOf(keys),
    keys.map((k) => k.desc),
    window,
  );
}
