/** The door of src/events: the events list, single reads, writes and their JSON-LD. */
export { emptyCostDetails, formatCost } from './cost';
export {
  NO_GROUP,
  countEventsBy,
  type EventCount,
  type EventCountArgs,
  type EventCountGroup,
} from './counts';
export {
  eventFieldColumns,
  throwEventProblems,
  type EventChanges,
  type EventFields,
  type EventFlagFields,
  type EventInput,
  type EventWriter,
} from './input';
export { parseCost } from './input-cost';
export {
  EventDateReader,
  checkZone,
  type EventDateColumns,
  type EventDateInput,
} from './input-dates';
export { eventJsonLd } from './json-ld';
export {
  eventsConnection,
  nestedEventConnection,
  type EventConnectionArgs,
  type EventConnectionPage,
  type EventOrderField,
  type NestedEventConnectionKey,
} from './keyset';
export type { EventListArgs } from './list-args';
export { organizerJsonLd, stateProvinceOf, venueJsonLd } from './place-json-ld';
export {
  getEvent,
  getEventBySlug,
  isRedacted,
  listEvents,
  listEventsAfter,
  seekAfter,
  type EventList,
} from './queries';
export type { EventSeek } from './store/event-list';
export { listNestedEvents, type NestedEventsKey } from './nested-lists';
export { findEventsByIds, findEventsWithLinks } from './store/event-reads';
export { linkedTerms, linksOfEvents, type EventLinks, type Linked } from './store/links';
export {
  COST_REASON,
  EMPTY_DATE,
  END_BEFORE_START,
  EVENT_COST_MAX,
  EVENT_DESCRIPTION_BYTES_MAX,
  EVENT_EXCERPT_BYTES_MAX,
  EVENT_FLAGS,
  EVENT_PASSWORD_MAX,
  EVENT_REQUIRED,
  EVENT_TITLE_MAX,
  NOT_A_DATE,
  ZONE_REASON,
  checkEventTitle,
  checkEventWebsite,
} from './rules';
export { createEvent, deleteEvent, updateEvent } from './writes';
