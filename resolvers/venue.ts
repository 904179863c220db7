import type { AppContext } from '../src/context';
import type {
  OrganizerEventsArgs,
  Resolvers,
  VenueEventsArgs,
} from '../src/graphql/generated/resolvers-types';
import { stateProvinceOf, venueJsonLd } from '../src/events';
import { globalId } from '../src/lib';
import type { PostRow } from '../src/db';
import { createVenue, deleteVenue, listVenues, readVenue, updateVenue } from '../src/places';
import { isSingleRead, pageUrl, renderDescription, renderExcerpt, renderTitle } from '../src/posts';

/**
 * Fields venues and organizers resolve alike (the SDL gives them the same types; `Venue` and
 * `Organizer` check them where they spread them). `path` is both the public page prefix and the
 * events-list argument that selects the record's events.
 */
export function linkedPostFields(path: 'venue' | 'organizer') {
  return {
    author: (row: PostRow) => String(row.author_id),
    description_rendered: (row: PostRow) => renderDescription(row.description),
    excerpt_rendered: (row: PostRow) => renderExcerpt(row.excerpt),
    url: (row: PostRow, _args: unknown, ctx: AppContext) => pageUrl(ctx.config, path, row.slug),
    image: async (row: PostRow, _args: unknown, ctx: AppContext) =>
      row.image_id === null ? null : ((await ctx.loaders.image.load(row.image_id)) ?? null),
    global_id: (row: PostRow, _args: unknown, ctx: AppContext) => globalId(ctx.config, row.id),
    global_id_lineage: (row: PostRow, _args: unknown, ctx: AppContext) => [
      globalId(ctx.config, row.id),
    ],
    // Batched: the venues (organizers) of a page read their events together.
    events: (row: PostRow, args: VenueEventsArgs | OrganizerEventsArgs, ctx: AppContext) =>
      ctx.loaders.nestedEvents.load({
        of: path,
        id: row.id,
        page: args.page,
        per_page: args.per_page,
      }),
  };
}

export const venueResolvers: Resolvers = {
  Query: {
    venues: (_root, args, ctx) => listVenues(ctx, args),
    venue: (_root, args, ctx) => readVenue(ctx, args.id),
    venue_by_slug: (_root, args, ctx) => readVenue(ctx, args.slug),
  },
  Mutation: {
    create_venue: (_root, args, ctx) => createVenue(ctx, args.input),
    update_venue: (_root, args, ctx) => updateVenue(ctx, args.id, args.input),
    update_venue_by_slug: (_root, args, ctx) => updateVenue(ctx, args.slug, args.input),
    // The generated types call defaulted arguments non-null, but a client may send null.
    delete_venue: (_root, args, ctx) => deleteVenue(ctx, args.id, args.force ?? false),
    delete_venue_by_slug: (_root, args, ctx) => deleteVenue(ctx, args.slug, args.force ?? false),
  },
  Venue: {
    ...linkedPostFields('venue'),
    venue: (venue) => venue.title,
    venue_rendered: (venue) => renderTitle(venue.title),
    stateprovince: (venue) => stateProvinceOf(venue),
    // Only single reads compute it (see `asSingleRead`).
    json_ld: (venue, _args, ctx) => (isSingleRead(venue) ? venueJsonLd(ctx.config, venue) : null),
  },
};
