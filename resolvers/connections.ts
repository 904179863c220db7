import type { AppContext } from '../src/context';
import type { EventRow, Taxonomy } from '../src/db';
import type { Resolvers } from '../src/graphql/generated/resolvers-types';
import {
  eventsConnection,
  isRedacted,
  nestedEventConnection,
  type EventConnectionArgs,
  type EventConnectionPage,
} from '../src/events';
import {
  organizerListConnection,
  organizersConnection,
  venuesConnection,
  type PlaceConnectionArgs,
} from '../src/places';
import { canSee, emptyConnection } from '../src/posts';
import { termListConnection, termsConnection, type TermConnectionArgs } from '../src/terms';

/**
 * Relay connections (docs/graphql.md "Paging with cursors"): the lists' filters through the
 * domains' connection reads; nested ones batched per level; `total_count` counted when asked.
 */

/** `total_count` of every connection type: the page's count, run only here. */
const counted = { total_count: (page: { count: () => Promise<number> }) => page.count() };

/** An event's organizers, as `Event.organizer` shows them (hidden while protected). */
async function eventOrganizers(ctx: AppContext, row: EventRow, args: PlaceConnectionArgs) {
  if (isRedacted(ctx, row)) return emptyConnection<never>();
  const rows = (await ctx.loaders.eventLinks.load(row.id)).organizers.filter((o) => canSee(ctx, o));
  return organizerListConnection(ctx, rows, args);
}

/** An event's categories or tags, as `Event.categories` / `tags` show them. */
async function eventTerms(
  ctx: AppContext,
  row: EventRow,
  taxonomy: Taxonomy,
  args: TermConnectionArgs,
) {
  if (isRedacted(ctx, row)) return emptyConnection<never>();
  const rows = (await ctx.loaders.eventLinks.load(row.id)).terms.filter(
    (t) => t.taxonomy === taxonomy,
  );
  return termListConnection(ctx, taxonomy, rows, args);
}

function nested(
  ctx: AppContext,
  of: 'venue' | 'organizer' | 'categories' | 'tags',
  parent: { id: number; count?: number },
  args: EventConnectionArgs,
): Promise<EventConnectionPage> {
  return nestedEventConnection(ctx, { of, id: parent.id, termEvents: parent.count, args });
}

export const connectionResolvers: Resolvers = {
  Query: {
    events_connection: (_root, args, ctx) => eventsConnection(ctx, args),
    venues_connection: (_root, args, ctx) => venuesConnection(ctx, args),
    organizers_connection: (_root, args, ctx) => organizersConnection(ctx, args),
    categories_connection: (_root, args, ctx) => termsConnection(ctx, 'category', args),
    tags_connection: (_root, args, ctx) => termsConnection(ctx, 'tag', args),
  },
  Event: {
    organizers_connection: (row, args, ctx) => eventOrganizers(ctx, row, args),
    categories_connection: (row, args, ctx) => eventTerms(ctx, row, 'category', args),
    tags_connection: (row, args, ctx) => eventTerms(ctx, row, 'tag', args),
  },
  Venue: { events_connection: (row, args, ctx) => nested(ctx, 'venue', row, args) },
  Organizer: { events_connection: (row, args, ctx) => nested(ctx, 'organizer', row, args) },
  Category: { events_connection: (row, args, ctx) => nested(ctx, 'categories', row, args) },
  Tag: { events_connection: (row, args, ctx) => nested(ctx, 'tags', row, args) },
  EventConnection: counted,
  VenueConnection: counted,
  OrganizerConnection: counted,
  CategoryConnection: counted,
  TagConnection: counted,
};
