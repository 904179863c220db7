/** The door of src/places: venues and organizers (shared rules, de-duplication by name). */
export type { LinkedListArgs } from './linked-post-list';
export {
  organizerListConnection,
  organizersConnection,
  venuesConnection,
  type OrganizerConnectionPage,
  type PlaceConnectionArgs,
  type PlaceOrderField,
  type VenueConnectionPage,
} from './keyset';
export { nameLocks } from './linked-posts';
export {
  assertOrganizersLinkable,
  createOrganizer,
  deleteOrganizer,
  listOrganizers,
  organizersForEvent,
  readOrganizer,
  updateOrganizer,
  type EventOrganizerInput,
  type OrganizerInput,
} from './organizers';
export {
  LATITUDE_MAX,
  LONGITUDE_MAX,
  ORGANIZER_DEFAULTS,
  PLACE_NAME_MAX,
  PLACE_TEXT_MAX,
  VENUE_DEFAULTS,
  VENUE_TEXT_COLUMNS,
  asEventProblem,
  checkPlaceName,
  coordinate,
  organizerColumns,
  placeColumns,
  venueColumns,
  type OrganizerFields,
  type PlaceWriter,
  type VenueFields,
} from './rules';
export { findLiveIdsByNames, type LinkedTable } from './store/linked-post-list';
export {
  assertVenuesLinkable,
  createVenue,
  deleteVenue,
  listVenues,
  readVenue,
  updateVenue,
  venueRowForEvent,
  type EventVenueInput,
  type VenueInput,
} from './venues';
