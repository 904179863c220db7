import type { IResolvers } from '@graphql-tools/utils';
import type { AppContext } from '../src/context';
import type { EventInput } from '../src/events/input';
import { createEvent, deleteEvent, updateEvent } from '../src/events/writes';

/** Event writes: read the arguments, call the service, return the row for the Event resolvers. */
export const eventMutationResolvers: IResolvers<unknown, AppContext> = {
  Mutation: {
    create_event: (_root, args: { input: EventInput }, ctx) => createEvent(ctx, args.input),
    update_event: (_root, args: { id: number; input: EventInput }, ctx) =>
      updateEvent(ctx, { id: args.id }, args.input),
    update_event_by_slug: (_root, args: { slug: string; input: EventInput }, ctx) =>
      updateEvent(ctx, { slug: args.slug }, args.input),
    delete_event: (_root, args: { id: number; force?: boolean | null }, ctx) =>
      deleteEvent(ctx, { id: args.id }, args.force === true),
    delete_event_by_slug: (_root, args: { slug: string; force?: boolean | null }, ctx) =>
      deleteEvent(ctx, { slug: args.slug }, args.force === true),
  },
};
