import type { Resolvers } from '../src/graphql/generated/resolvers-types';
import { organizerJsonLd } from '../src/events';
import {
  createOrganizer,
  deleteOrganizer,
  listOrganizers,
  readOrganizer,
  updateOrganizer,
} from '../src/places';
import { isSingleRead, renderTitle } from '../src/posts';
import { linkedPostFields } from './venue';

export const organizerResolvers: Resolvers = {
  Query: {
    organizers: (_root, args, ctx) => listOrganizers(ctx, args),
    organizer: (_root, args, ctx) => readOrganizer(ctx, args.id),
    organizer_by_slug: (_root, args, ctx) => readOrganizer(ctx, args.slug),
  },
  Mutation: {
    create_organizer: (_root, args, ctx) => createOrganizer(ctx, args.input),
    update_organizer: (_root, args, ctx) => updateOrganizer(ctx, args.id, args.input),
    update_organizer_by_slug: (_root, args, ctx) => updateOrganizer(ctx, args.slug, args.input),
    // The generated types call defaulted arguments non-null, but a client may send null.
    delete_organizer: (_root, args, ctx) => deleteOrganizer(ctx, args.id, args.force ?? false),
    delete_organizer_by_slug: (_root, args, ctx) =>
      deleteOrganizer(ctx, args.slug, args.force ?? false),
  },
  Organizer: {
    ...linkedPostFields('organizer'),
    organizer: (organizer) => organizer.title,
    organizer_rendered: (organizer) => renderTitle(organizer.title),
    // Only single reads compute it (see `asSingleRead`).
    json_ld: (organizer, _args, ctx) =>
      isSingleRead(organizer) ? organizerJsonLd(ctx.config, organizer) : null,
  },
};
