import type { IResolvers } from '@graphql-tools/utils';
import type { AppContext } from '../src/context';
import { organizerJsonLd } from '../src/events/place-json-ld';
import type { OrganizerRow } from '../src/db/rows';
import type { LinkedListArgs } from '../src/places/linked-post-list';
import { isSingleRead } from '../src/posts/single-read';
import {
  createOrganizer,
  deleteOrganizer,
  listOrganizers,
  readOrganizer,
  updateOrganizer,
  type OrganizerInput,
} from '../src/places/organizers';
import { linkedPostFields } from './venue';

type Input = { input: OrganizerInput };
type Force = { force?: boolean | null };

export const organizerResolvers: IResolvers<unknown, AppContext> = {
  Query: {
    organizers: (_root, args: LinkedListArgs, ctx) => listOrganizers(ctx, args),
    organizer: (_root, args: { id: number }, ctx) => readOrganizer(ctx, args.id),
    organizer_by_slug: (_root, args: { slug: string }, ctx) => readOrganizer(ctx, args.slug),
  },
  Mutation: {
    create_organizer: (_root, args: Input, ctx) => createOrganizer(ctx, args.input),
    update_organizer: (_root, args: Input & { id: number }, ctx) =>
      updateOrganizer(ctx, args.id, args.input),
    update_organizer_by_slug: (_root, args: Input & { slug: string }, ctx) =>
      updateOrganizer(ctx, args.slug, args.input),
    delete_organizer: (_root, args: Force & { id: number }, ctx) =>
      deleteOrganizer(ctx, args.id, args.force ?? false),
    delete_organizer_by_slug: (_root, args: Force & { slug: string }, ctx) =>
      deleteOrganizer(ctx, args.slug, args.force ?? false),
  },
  Organizer: {
    ...linkedPostFields<OrganizerRow>('organizer'),
    // Only single reads compute it (see `asSingleRead`).
    json_ld: (organizer: OrganizerRow, _args, ctx) =>
      isSingleRead(organizer) ? organizerJsonLd(ctx.config, organizer) : null,
  },
};
