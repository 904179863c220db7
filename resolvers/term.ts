import { Kind, type GraphQLResolveInfo } from 'graphql';
import type { AppContext } from '../src/context';
import type { Resolvers } from '../src/graphql/generated/resolvers-types';
import type { Taxonomy, TermRow } from '../src/db';
import {
  childrenOf,
  createTerm,
  deleteTerm,
  getTerm,
  listTerms,
  parentOf,
  termUrl,
  termUrls,
  updateTerm,
  WP_TAXONOMY,
  type TermListArgs,
} from '../src/terms';

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

function list(ctx: AppContext, taxonomy: Taxonomy, args: TermListArgs, info: GraphQLResolveInfo) {
  const hide_empty = sent(info, 'hide_empty') ? args.hide_empty : undefined;
  return listTerms(ctx, taxonomy, { ...args, hide_empty });
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

export const termResolvers: Resolvers = {
  Query: {
    categories: async (_root, args, ctx, info) => {
      const { rows, ...page } = await list(ctx, 'category', args, info);
      return { ...page, categories: rows };
    },
    category: (_root, args, ctx) => getTerm(ctx, 'category', args.id),
    tags: async (_root, args, ctx, info) => {
      const { rows, ...page } = await list(ctx, 'tag', args, info);
      return { ...page, tags: rows };
    },
    tag: (_root, args, ctx) => getTerm(ctx, 'tag', args.id),
  },
  Mutation: {
    create_category: (_root, args, ctx) => createTerm(ctx, 'category', args.input),
    update_category: (_root, args, ctx) => updateTerm(ctx, 'category', args.id, args.input),
    delete_category: (_root, args, ctx) => deleteTerm(ctx, 'category', args.id),
    create_tag: (_root, args, ctx) => createTerm(ctx, 'tag', args.input),
    update_tag: (_root, args, ctx) => updateTerm(ctx, 'tag', args.id, args.input),
    delete_tag: (_root, args, ctx) => deleteTerm(ctx, 'tag', args.id),
  },
  Term: {
    __resolveType: (row) => (row.taxonomy === 'category' ? 'Category' : 'Tag'),
  },
  Category: {
    ...termFields,
    parent: (row) => row.parent_id ?? 0,
    parent_category: (row, _args, ctx) => parentOf(ctx, row),
    children: (row, _args, ctx) => childrenOf(ctx, row),
    // Batched: the categories of a page read their events together (src/events/nested-lists.ts).
    events: (row, args, ctx) =>
      ctx.loaders.nestedEvents.load({
        of: 'categories',
        id: row.id,
        page: args.page,
        per_page: args.per_page,
        termEvents: row.count,
      }),
  },
  Tag: {
    ...termFields,
    events: (row, args, ctx) =>
      ctx.loaders.nestedEvents.load({
        of: 'tags',
        id: row.id,
        page: args.page,
        per_page: args.per_page,
        termEvents: row.count,
      }),
  },
};
