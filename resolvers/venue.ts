import type { IResolvers } from '@graphql-tools/utils';
import type { AppContext } from '../src/context';
import { stateProvinceOf, venueJsonLd } from '../src/events/place-json-ld';
import { globalId, publicUrl } from '../src/lib/urls';
import type { PostRow, VenueRow } from '../src/db/rows';
import { listEvents } from '../src/events/queries';
import type { LinkedListArgs } from '../src/places/linked-post-list';
import { isSingleRead } from '../src/posts/single-read';
import {
  createVenue,
  deleteVenue,
  listVenues,
  readVenue,
  updateVenue,
  type VenueInput,
} from '../src/places/venues';

/** Arguments of the nested `events` field; the other fields take none. */
type PageArgs = { page?: number | null; per_page?: number | null };
type Resolver<Row> = (row: Row, args: PageArgs, ctx: AppContext) => unknown;

/**
 * Fields venues and organizers resolve alike. `path` is both the public page prefix, the name
 * field and the events-list argument that selects the record's events.
 */
export function linkedPostFields<Row extends PostRow>(
  path: 'venue' | 'organizer',
): Record<string, Resolver<Row>> {
  return {
    author: (row) => String(row.author_id),
    url: (row, _args, ctx) => publicUrl(ctx.config, `${path}/${row.slug}/`),
    [path]: (row) => row.title,
    image: async (row, _args, ctx) =>
      row.image_id === null ? null : ((await ctx.loaders.image.load(row.image_id)) ?? null),
    global_id: (row, _args, ctx) => globalId(ctx.config, row.id),
    global_id_lineage: (row, _args, ctx) => [globalId(ctx.config, row.id)],
    events: (row, args, ctx) =>
      listEvents(ctx, { [path]: [row.id], page: args.page, per_page: args.per_page }),
  };
}

export const venueResolvers: IResolvers<unknown, AppContext> = {
  Query: {
    venues: (_root, args: LinkedListArgs, ctx) => listVenues(ctx, args),
    venue: (_root, args: { id: number }, ctx) => readVenue(ctx, args.id),
    venue_by_slug: (_root, args: { slug: string }, ctx) => readVenue(ctx, args.slug),
  },
  Mutation: {
    create_venue: (_root, args: { input: VenueInput }, ctx) => createVenue(ctx, args.input),
    update_venue: (_root, args: { id: number; input: VenueInput }, ctx) =>
      updateVenue(ctx, args.id, args.input),
    update_venue_by_slug: (_root, args: { slug: string; input: VenueInput }, ctx) =>
      updateVenue(ctx, args.slug, args.input),
    delete_venue: (_root, args: { id: number; force?: boolean | null }, ctx) =>
      deleteVenue(ctx, args.id, args.force ?? false),
    delete_venue_by_slug: (_root, args: { slug: string; force?: boolean | null }, ctx) =>
      deleteVenue(ctx, args.slug, args.force ?? false),
  },
  Venue: {
    ...linkedPostFields<VenueRow>('venue'),
    stateprovince: (venue: VenueRow) => stateProvinceOf(venue),
    // Only single reads compute it (see `asSingleRead`).
    json_ld: (venue: VenueRow, _args, ctx) =>
      isSingleRead(venue) ? venueJsonLd(ctx.config, venue) : null,
  },
};
