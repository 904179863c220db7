import type { AppContext } from '../src/context';
import type { NodeResolvers, Resolvers } from '../src/graphql/generated/resolvers-types';
import type { EventRow, OrganizerRow, Taxonomy, TermRow, VenueRow } from '../src/db';
import { DomainError, invalid, notFound } from '../src/lib';
import { canSee } from '../src/posts';
import { findTermsBySlugOrName } from '../src/terms';
import { parseNodeId, postNodeId, termNodeId } from './node-id';

/**
 * `node`, `nodes`, `category_by_slug`, `tag_by_slug` and `node_id` (schema/node.graphql). A node
 * is looked up through the request's DataLoaders, so `nodes` costs one statement per kind of
 * record whatever the number of ids; the caller sees exactly what the lists show it, and a
 * record it may not see answers as a missing one.
 */

/** Most ids one `nodes` call takes (a page's size, PER_PAGE_MAX's default). */
export const NODES_MAX = 50;

type NodeRow = EventRow | VenueRow | OrganizerRow | TermRow;

function missing(id: string): DomainError {
  return new DomainError('NOT_FOUND', 'not_found', `No record has the global id "${id}".`);
}

/** The record a node id names if the caller may see it; else the error that takes its place. */
async function lookup(ctx: AppContext, nodeId: string): Promise<NodeRow | DomainError> {
  const key = parseNodeId(ctx.config, nodeId);
  if (!key) return missing(nodeId);
  if (key.space === 'term') return (await ctx.loaders.term.load(key.id)) ?? missing(nodeId);
  // The three kinds of post share one id space: at most one of them has the id.
  const rows = await Promise.all([
    ctx.loaders.event.load(key.id),
    ctx.loaders.venue.load(key.id),
    ctx.loaders.organizer.load(key.id),
  ]);
  const row = rows.find((r) => r !== undefined);
  return row && canSee(ctx, row) ? row : missing(nodeId);
}

async function bySlug(ctx: AppContext, taxonomy: Taxonomy, slug: string): Promise<TermRow> {
  const rows = await findTermsBySlugOrName(ctx.db, taxonomy, [slug]);
  const row = rows.find((r) => r.slug === slug.toLowerCase());
  if (!row) throw notFound(taxonomy, slug);
  return row;
}

const Node: NodeResolvers = {
  __resolveType: (row) => {
    if ('taxonomy' in row) return row.taxonomy === 'category' ? 'Category' : 'Tag';
    if ('start_date' in row) return 'Event';
    return 'address' in row ? 'Venue' : 'Organizer';
  },
};

export const nodeResolvers: Resolvers = {
  Query: {
    node: async (_root, args, ctx) => {
      const found = await lookup(ctx, args.id);
      if (found instanceof DomainError) throw found;
      return found;
    },
    // A missing record is an Error in its place: null with an error at its index.
    nodes: (_root, args, ctx) => {
      if (args.ids.length > NODES_MAX) throw invalid('ids', `at most ${NODES_MAX} ids`);
      return args.ids.map((id) => lookup(ctx, id)) as unknown as Promise<NodeRow>[];
    },
    category_by_slug: (_root, args, ctx) => bySlug(ctx, 'category', args.slug),
    tag_by_slug: (_root, args, ctx) => bySlug(ctx, 'tag', args.slug),
  },
  Node,
  Event: { node_id: (row, _a, ctx) => postNodeId(ctx.config, row.id) },
  Venue: { node_id: (row, _a, ctx) => postNodeId(ctx.config, row.id) },
  Organizer: { node_id: (row, _a, ctx) => postNodeId(ctx.config, row.id) },
  Category: { node_id: (row, _a, ctx) => termNodeId(ctx.config, row.id) },
  Tag: { node_id: (row, _a, ctx) => termNodeId(ctx.config, row.id) },
};
