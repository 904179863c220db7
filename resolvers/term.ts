import type { IResolvers } from '@graphql-tools/utils';
import { Kind, type GraphQLResolveInfo } from 'graphql';
import type { AppContext } from '../src/context';
import type { Taxonomy, TermRow } from '../src/db/rows';
import { listEvents } from '../src/events/queries';
import {
  childrenOf,
  getTerm,
  listTerms,
  parentOf,
  termUrl,
  termUrls,
  WP_TAXONOMY,
  type TermListArgs,
} from '../src/terms/queries';
import { createTerm, deleteTerm, updateTerm, type TermInput } from '../src/terms/writes';

/**
 * Did the client really send this argument? SDL defaults fill `hide_empty` in either way, but
 * the list echoes it only when sent; a variable counts only when its value was provided.
 */
function sent(info: GraphQLResolveInfo, name: string): boolean {
  const node = info.fieldNodes[0]?.arguments?.find((a) => a.name.value === name);
  if (!node) return false;
  if (node.value.kind !== Kind.VARIABLE) return true;
  return Object.prototype.hasOwnProperty.call(info.variableValues, node.value.name.value);
}

async function list(
  ctx: AppContext,
  taxonomy: Taxonomy,
  args: TermListArgs,
  info: GraphQLResolveInfo,
) {
  const hide_empty = sent(info, 'hide_empty') ? args.hide_empty : undefined;
  const { rows, ...page } = await listTerms(ctx, taxonomy, { ...args, hide_empty });
  return { ...page, [taxonomy === 'category' ? 'categories' : 'tags']: rows };
}

interface EventsArgs {
  page?: number | null;
  per_page?: number | null;
}

/** Fields both term types compute the same way from a `TermRow`. */
const termFields = {
  taxonomy: (row: TermRow) => WP_TAXONOMY[row.taxonomy],
  url: (row: TermRow, _args: unknown, ctx: AppContext) => termUrl(ctx, row),
  urls: (row: TermRow, _args: unknown, ctx: AppContext) =>
    termUrls(ctx.config, row, ctx.restNamespace),
  meta: () => [],
  term_group: () => 0,
  term_taxonomy_id: (row: TermRow) => row.id,
  filter: () => 'raw',
};

export const termResolvers: IResolvers<unknown, AppContext> = {
  Query: {
    categories: (_root, args: TermListArgs, ctx: AppContext, info) =>
      list(ctx, 'category', args, info),
    category: (_root, args: { id: number }, ctx: AppContext) => getTerm(ctx, 'category', args.id),
    tags: (_root, args: TermListArgs, ctx: AppContext, info) => list(ctx, 'tag', args, info),
    tag: (_root, args: { id: number }, ctx: AppContext) => getTerm(ctx, 'tag', args.id),
  },
  Mutation: {
    create_category: (_root, args: { input: TermInput }, ctx: AppContext) =>
      createTerm(ctx, 'category', args.input),
    update_category: (_root, args: { id: number; input: TermInput }, ctx: AppContext) =>
      updateTerm(ctx, 'category', args.id, args.input),
    delete_category: (_root, args: { id: number }, ctx: AppContext) =>
      deleteTerm(ctx, 'category', args.id),
    create_tag: (_root, args: { input: TermInput }, ctx: AppContext) =>
      createTerm(ctx, 'tag', args.input),
    update_tag: (_root, args: { id: number; input: TermInput }, ctx: AppContext) =>
      updateTerm(ctx, 'tag', args.id, args.input),
    delete_tag: (_root, args: { id: number }, ctx: AppContext) => deleteTerm(ctx, 'tag', args.id),
  },
  Term: {
    __resolveType: (row: TermRow) => (row.taxonomy === 'category' ? 'Category' : 'Tag'),
  },
  Category: {
    ...termFields,
    parent: (row: TermRow) => row.parent_id ?? 0,
    parent_category: (row: TermRow, _args: unknown, ctx: AppContext) => parentOf(ctx, row),
    children: (row: TermRow, _args: unknown, ctx: AppContext) => childrenOf(ctx, row),
    events: (row: TermRow, args: EventsArgs, ctx: AppContext) =>
      listEvents(ctx, { categories: [String(row.id)], page: args.page, per_page: args.per_page }),
  },
  Tag: {
    ...termFields,
    events: (row: TermRow, args: EventsArgs, ctx: AppContext) =>
      listEvents(ctx, { tags: [String(row.id)], page: args.page, per_page: args.per_page }),
  },
};
