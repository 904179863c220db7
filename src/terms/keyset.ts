import type { AppContext } from '../context';
import type { Taxonomy, TermRow } from '../db';
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
import { termListFilter, type TermListArgs } from './queries';
import {
  countTerms,
  findTermKeysetPage,
  termKeyColumns,
  type TermOrderField,
} from './store/keyset';

/**
 * Category and tag connections: their lists' filter (`termListFilter`) read in keyset pages;
 * and the connection of an event's categories or tags, from the loader's rows.
 */

export type { TermOrderField };

export interface TermConnectionArgs extends ConnectionArgs {
  order_by?: readonly OrderInput<TermOrderField>[] | null;
}

export type TermConnectionPage = Connection<TermRow>;

function keysOf(args: TermConnectionArgs): SortKey<TermOrderField>[] {
  return sortKeys(args.order_by, 'NAME', 'ID');
}

/** The list's arguments but its paging and ordering, which the connection replaces. */
type TermConnectionFilterArgs = Omit<TermListArgs, 'page' | 'per_page' | 'order' | 'orderby'>;

export async function termsConnection(
  ctx: AppContext,
  taxonomy: Taxonomy,
  raw: TermConnectionFilterArgs & TermConnectionArgs,
): Promise<TermConnectionPage> {
  const { first, after, last, before, order_by, ...list } = raw;
  const keys = keysOf({ order_by });
  const window = connectionWindow(
    ctx.config,
    { first, after, last, before },
    orderTag(taxonomy, keys),
    termKeyColumns(keys).map((c) => c.numeric === true),
  );
  const { filter } = await termListFilter(ctx, taxonomy, list);
  const rows = await findTermKeysetPage(
    ctx.db,
    filter,
    termKeyColumns(keys),
    window,
    window.limit + 1,
  );
  primeAll(
    ctx.loaders.term,
    rows.map((r) => r.row),
  );
  return connectionOf(rows, window, () => countTerms(ctx.db, filter));
}

/** The key of a term in memory, as `termKeyColumns` reads it in SQL. */
function keyOf(keys: readonly SortKey<TermOrderField>[]): (row: TermRow) => KeyValue[] {
  const value = (row: TermRow, field: TermOrderField): KeyValue => {
    switch (field) {
      case 'NAME':
        return row.name.toLowerCase();
      case 'SLUG':
        return row.slug;
      case 'COUNT':
        return row.count;
      case 'ID':
        return row.id;
    }
  };
  return (row) => keys.map((k) => value(row, k.field));
}

/** An event's categories or tags (already read) as a connection. */
export function termListConnection(
  ctx: AppContext,
  taxonomy: Taxonomy,
  rows: readonly TermRow[],
  args: TermConnectionArgs,
): TermConnectionPage {
  const keys = keysOf(args);
  const window = connectionWindow(
    ctx.config,
    args,
    orderTag(`event-${taxonomy}`, keys),
    termKeyColumns(keys).map((c) => c.numeric === true),
  );
  return connectionFromList(
    rows,
    keyOf(keys),
    keys.map((k) => k.desc),
    window,
  );
}
