import type { Resolvers } from '../src/graphql/generated/resolvers-types';
import { createEvent, deleteEvent, updateEvent } from '../src/events';

/** Event writes: read the arguments, call the service, return the row for the Event resolvers. */
export const eventMutationResolvers: Resolvers = {
  Mutation: {
    create_event: (_root, args, ctx) => createEvent(ctx, args.input),
    update_event: (_root, args, ctx) => updateEvent(ctx, { id: args.id }, args.input),
    update_event_by_slug: (_root, args, ctx) => updateEvent(ctx, { slug: args.slug }, args.input),
    delete_event: (_root, args, ctx) => deleteEvent(ctx, { id: args.id }, args.force === true),
    delete_event_by_slug: (_root, args, ctx) =>
      deleteEvent(ctx, { slug: args.slug }, args.force === true),
  },
};
