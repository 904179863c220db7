import { seesUnpublished } from '../users';
import type { AppContext } from '../context';
import { formatSql, invalid, nowIn, primeAll } from '../lib';
import { findLinkedPageAndTotal, type LinkedListFilter } from './store/linked-post-list';
import { canReference, envelope, findById, listStatuses, paging, type Envelope } from '../posts';
import type { PostRow, PostStatus } from '../db';
import type { LinkedInput, LinkedKind } from './linked-posts';

/**
 * The `venues` / `organizers` lists (docs/contract.md §5, §6): filters, visibility, paging,
 * envelope.
 */

/** Arguments of the `venues` / `organizers` lists. */
export interface LinkedListArgs {
  page?: number | null;
  per_page?: number | null;
  search?: string | null;
  event?: number | null;
  has_events?: boolean | null;
  only_with_upcoming?: boolean | null;
  status?: PostStatus[] | null;
}

export interface LinkedPage<Row> extends Envelope {
  rows: Row[];
}

/** Events that make a record "have events": every listable status but draft and pending. */
const HAS_EVENTS_STATUSES: readonly PostStatus[] = ['publish', 'future', 'private'];

/**
 * Search words: anything but letters, digits and `-` separates them. A search made only of
 * separators (`@`) is looked for as typed rather than matching everything.
 */
function searchWords(search: string): string[] {
  const text = search.trim();
  if (text === '') throw invalid('search', 'must not be empty');
  const words = text.split(/[^\p{L}\p{N}-]+/u).filter((w) => w !== '');
  return words.length ? [...new Set(words)] : [text];
}

/** One page by name. Filters are validated before any query; totals reflect every filter. */
export async function listLinked<Row extends PostRow>(
  ctx: AppContext,
  kind: LinkedKind<Row, LinkedInput>,
  args: LinkedListArgs,
): Promise<LinkedPage<Row>> {
  const paged = paging(ctx.config, args.page, args.per_page);
  const { filter, echo } = await linkedListFilter(ctx, kind, args);
  const { total, rows } = await findLinkedPageAndTotal<Row>(
    ctx.db,
    kind.table,
    filter,
    paged.perPage,
    paged.offset,
  );
  const env = envelope(
    ctx.config,
    kind.resource,
    kind.table,
    paged,
    total,
    echo,
    ctx.restNamespace,
  );
  primeAll(kind.loader(ctx), rows);
  return { ...env, rows };
}

/**
 * The filter of a `venues` / `organizers` list (and of their connections) and the query its
 * links echo: validated, visibility included.
 */
export async function linkedListFilter<Row extends PostRow>(
  ctx: AppContext,
  kind: LinkedKind<Row, LinkedInput>,
  args: LinkedListArgs,
): Promise<{ filter: LinkedListFilter; echo: [string, string][] }> {
  const filter: LinkedListFilter = { statuses: listStatuses(ctx, args.status) };
  const echo: [string, string][] = [];
  if (args.search !== undefined && args.search !== null) {
    filter.search = { words: searchWords(args.search), fields: kind.searchFields };
    echo.push(['search', args.search]);
  }
  if (args.event !== undefined && args.event !== null) {
    // An event the caller may not see answers as one that does not exist.
    if (!canReference(ctx, await findById(ctx.db, 'events', args.event))) {
      throw invalid('event', `${args.event} is not the id of an existing event`);
    }
    filter.eventId = args.event;
    echo.push(['event', String(args.event)]);
  }
  if (args.has_events !== undefined && args.has_events !== null) {
    filter.hasEvents = { linked: args.has_events, eventStatuses: HAS_EVENTS_STATUSES };
    echo.push(['has_events', String(args.has_events)]);
  }
  if (args.only_with_upcoming !== undefined && args.only_with_upcoming !== null) {
    // The events this caller may see, as the events list would show them (status default).
    if (args.only_with_upcoming) {
      const startsFromUtc = formatSql(nowIn('UTC', ctx.now()));
      filter.upcoming = { eventStatuses: listStatuses(ctx, null), startsFromUtc };
    }
    echo.push(['only_with_upcoming', String(args.only_with_upcoming)]);
  }
  // Echo the effective statuses, except a privileged caller's default ("all but trash").
  if (args.status?.length || !seesUnpublished(ctx.viewer)) {
    echo.push(['status', filter.statuses.join(',')]);
  }
  return { filter, echo };
}
