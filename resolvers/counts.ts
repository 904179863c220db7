import type { Resolvers } from '../src/graphql/generated/resolvers-types';
import { countEventsBy } from '../src/events';

/** `event_counts` (schema/counts.graphql): the events list's arguments, grouped by the domain. */
export const countResolvers: Resolvers = {
  Query: {
    event_counts: (_root, { group_by, ...args }, ctx) => countEventsBy(ctx, group_by, args),
  },
};
