import type { Config } from '../config';
import type { AppContext } from '../context';
import {
  InvalidParamError,
  notFound,
  primeAll,
  publicUrl,
  restUrl,
  type InvalidParams,
} from '../lib';
import { canReference, envelope, findById, paging, type Envelope } from '../posts';
import type { Taxonomy, TermRow } from '../db';
import { listTermRows, type TermFilter, type TermOrderColumn } from './store/term-list';
import { existingTermIds, findTermOf } from './store/terms';

/** Reads of categories and tags: lists, singles and the derived fields of a term. */

/** The REST collection and the WordPress taxonomy name of each of our taxonomies. */
const COLLECTION: Record<Taxonomy, string> = { category: 'categories', tag: 'tags' };
export const WP_TAXONOMY: Record<Taxonomy, string> = {
  category: 'tribe_events_cat',
  tag: 'post_tag',
};

/** Arguments of the `categories` / `tags` lists, as the contract names them. */
export interface TermListArgs {
  page?: number | null;
  per_page?: number | null;
  search?: string | null;
  exclude?: number[] | null;
  include?: number[] | null;
  order?: 'asc' | 'desc' | null;
  orderby?: TermOrderColumn | null;
  /** `undefined` when the caller did not send it (default true, not echoed). */
  hide_empty?: boolean | null;
  post?: number | null;
  event?: number | null;
  slug?: string | null;
  /** Categories only; 0 means top level. */
  parent?: number | null;
}

export interface TermList extends Envelope {
  rows: TermRow[];
}

function given<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/** One page of categories or tags; every parameter problem is reported in one 400. */
export async function listTerms(
  ctx: AppContext,
  taxonomy: Taxonomy,
  args: TermListArgs,
): Promise<TermList> {
  const paged = paging(ctx.config, args.page, args.per_page);
  const { filter, echo } = await termListFilter(ctx, taxonomy, args);

  const { rows, total } = await listTermRows(
    ctx.db,
    filter,
    { orderby: args.orderby ?? 'name', direction: args.order ?? 'asc' },
    paged.perPage,
    paged.offset,
  );
  const env = envelope(
    ctx.config,
    taxonomy,
    COLLECTION[taxonomy],
    paged,
    total,
    echo,
    ctx.restNamespace,
  );
  primeAll(ctx.loaders.term, rows);
  return { ...env, rows };
}

/**
 * The filter of a `categories` / `tags` list (and of their connections) and the query its links
 * echo; every parameter problem is reported in one 400.
 */
export async function termListFilter(
  ctx: AppContext,
  taxonomy: Taxonomy,
  args: TermListArgs,
): Promise<{ filter: TermFilter; echo: [string, string][] }> {
  const problems: InvalidParams = {};
  const filter: TermFilter = { taxonomy, hideEmpty: args.hide_empty ?? true };
  const echo: [string, string][] = [];
  const kind = taxonomy === 'category' ? 'categories' : 'tags';

  if (given(args.search)) {
    if (args.search === '') problems.search = 'must be a non-empty string';
    filter.search = args.search;
    echo.push(['search', args.search]);
  }
  // include/exclude are checked together: one query tells which ids exist in the taxonomy.
  const include = args.include ?? [];
  const exclude = args.exclude ?? [];
  const known = await existingTermIds(ctx.db, taxonomy, [...include, ...exclude]);
  for (const [name, ids] of [
    ['exclude', exclude],
    ['include', include],
  ] as const) {
    if (ids.length === 0) continue;
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) problems[name] = `unknown ${kind} id(s): ${unknown.join(', ')}`;
    filter[name] = ids;
    echo.push([name, ids.join(',')]);
  }
  if (given(args.order)) echo.push(['order', args.order]);
  if (given(args.orderby)) echo.push(['orderby', args.orderby]);
  if (given(args.hide_empty)) echo.push(['hide_empty', String(args.hide_empty)]);

  // `event` is an alias of `post` and wins when both are sent.
  const eventParam = given(args.event) ? 'event' : given(args.post) ? 'post' : null;
  if (eventParam) {
    const eventId = (eventParam === 'event' ? args.event : args.post) as number;
    // An event the caller may not see answers as one that does not exist.
    if (eventId < 1 || !canReference(ctx, await findById(ctx.db, 'events', eventId)))
      problems[eventParam] = 'must be the id of an existing event';
    filter.eventId = eventId;
    echo.push([eventParam, String(eventId)]);
  }
  if (given(args.slug)) {
    if (args.slug === '') problems.slug = 'must be a non-empty string';
    filter.slug = args.slug;
    echo.push(['slug', args.slug]);
  }
  if (given(args.parent)) {
    const parent = args.parent;
    if (parent < 0 || (parent > 0 && !(await findTermOf(ctx.db, taxonomy, parent))))
      problems.parent = 'must be the id of an existing category, or 0 for top level';
    filter.parentId = parent === 0 ? null : parent;
    echo.push(['parent', String(parent)]);
  }
  if (Object.keys(problems).length) throw new InvalidParamError(problems);
  return { filter, echo };
}

/** One term of `taxonomy`; another taxonomy's id is as unknown as a missing one. */
export async function getTerm(ctx: AppContext, taxonomy: Taxonomy, id: number): Promise<TermRow> {
  const row = await ctx.loaders.term.load(id);
  if (!row || row.taxonomy !== taxonomy) throw notFound(taxonomy, id);
  return row;
}

/** The parent category, or null (a dangling or foreign parent counts as none). */
export async function parentOf(ctx: AppContext, row: TermRow): Promise<TermRow | null> {
  if (row.parent_id === null) return null;
  const parent = await ctx.loaders.term.load(row.parent_id);
  return parent && parent.taxonomy === row.taxonomy ? parent : null;
}

/**
 * Public archive page. Child categories nest their ancestors' slugs like WordPress permalinks;
 * each tree level of a page costs one batched load.
 */
export async function termUrl(ctx: AppContext, row: TermRow): Promise<string> {
  if (row.taxonomy === 'tag') return publicUrl(ctx.config, `tag/${row.slug}/`);
  const slugs = [row.slug];
  const seen = new Set([row.id]);
  let current: TermRow | null = await parentOf(ctx, row);
  // `seen` guards against a corrupted tree with a cycle.
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    slugs.unshift(current.slug);
    current = await parentOf(ctx, current);
  }
  return publicUrl(ctx.config, `events/category/${slugs.join('/')}/`);
}

export interface TermUrls {
  self: string;
  collection: string;
  up: string | null;
}

/** `namespace`: the REST namespace of the links (the request's, `AppContext.restNamespace`). */
export function termUrls(config: Config, row: TermRow, namespace?: string): TermUrls {
  const collection = COLLECTION[row.taxonomy];
  const parent = row.taxonomy === 'category' ? row.parent_id : null;
  return {
    self: restUrl(config, `${collection}/${row.id}`, namespace),
    collection: restUrl(config, collection, namespace),
    up: parent ? restUrl(config, `${collection}/${parent}`, namespace) : null,
  };
}

export async function childrenOf(ctx: AppContext, row: TermRow): Promise<TermRow[]> {
  return row.taxonomy === 'category' ? ctx.loaders.termChildren.load(row.id) : [];
}
