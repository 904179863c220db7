import DataLoader from 'dataloader';
import type { AppContext } from '.';
import type {
  Db,
  EventRow,
  ImageRow,
  OrganizerRow,
  PostRow,
  PostTable,
  TermRow,
  VenueRow,
} from '../db';
import {
  findEventsWithLinks,
  linksOfEvents,
  listNestedEvents,
  type EventLinks,
  type EventList,
  type NestedEventsKey,
} from '../events';
import { findByIds, findImagesByIds } from '../posts';
import { primeAll } from '../lib';
import { findChildren, findTermsByIds } from '../terms';

/** Per-request batching: whatever a page needs of one kind costs one query. */
export interface Loaders {
  event: DataLoader<number, EventRow | undefined>;
  venue: DataLoader<number, VenueRow | undefined>;
  organizer: DataLoader<number, OrganizerRow | undefined>;
  term: DataLoader<number, TermRow | undefined>;
  image: DataLoader<number, ImageRow | undefined>;
  /**
   * An event's organizers (trashed ones included; resolvers filter) and its categories and tags,
   * each in link order: one statement for both (`linksOfEvents`).
   */
  eventLinks: DataLoader<number, EventLinks>;
  /** Direct child categories of a category, by name. */
  termChildren: DataLoader<number, TermRow[]>;
  /**
   * The events of a venue, organizer, category or tag (one page of them): every parent of a
   * level in one batch, a few statements instead of a list per parent.
   */
  nestedEvents: DataLoader<NestedEventsKey, EventList, string>;
}

/** Batch functions must answer in key order; this maps rows back onto the keys. */
function byId<T extends { id: number }>(rows: T[], keys: readonly number[]): (T | undefined)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return keys.map((k) => map.get(k));
}

function postLoader<T extends PostRow>(
  db: Db,
  table: PostTable,
): DataLoader<number, T | undefined> {
  return new DataLoader(async (ids) => byId(await findByIds<T>(db, table, ids), ids));
}

/** Same parent, relation and page: the same list. */
function nestedKey(key: NestedEventsKey): string {
  return `${key.of}:${key.id}:${String(key.page)}:${String(key.per_page)}`;
}

/** The loaders of one request; `ctx` is read when a batch runs (viewer, clock, namespace). */
export function createLoaders(ctx: AppContext): Loaders {
  const { db } = ctx;
  const term: Loaders['term'] = new DataLoader(async (ids) =>
    byId(await findTermsByIds(db, ids), ids),
  );
  const venue = postLoader<VenueRow>(db, 'venues');
  const eventLinks: Loaders['eventLinks'] = new DataLoader((ids) => linksOfEvents(db, ids));
  return {
    // Events come with their venues and links (one statement): `Event.venue`, `organizer`,
    // `categories` and `tags` then read the caches.
    event: new DataLoader(async (ids) => {
      const { events, venues, links } = await findEventsWithLinks(db, ids);
      primeAll(venue, venues);
      for (const [id, linked] of links) eventLinks.prime(id, linked);
      return byId(events, ids);
    }),
    venue,
    organizer: postLoader<OrganizerRow>(db, 'organizers'),
    term,
    image: new DataLoader(async (ids) => byId(await findImagesByIds(db, ids), ids)),
    eventLinks,
    termChildren: new DataLoader(async (ids) => {
      const rows = await findChildren(db, ids);
      primeAll(term, rows);
      return ids.map((id) => rows.filter((r) => r.parent_id === id));
    }),
    nestedEvents: new DataLoader((keys) => listNestedEvents(ctx, keys), { cacheKeyFn: nestedKey }),
  };
}
