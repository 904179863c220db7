import type { EventListFilter } from '../../src/events/store/event-list';
import { findEventPage } from '../../src/events/store/event-list';
import {
  VENUE_COLUMNS,
  findEventBySlug,
  findEventsByIds,
  type EventsRead,
} from '../../src/events/store/event-reads';
import { findByIds } from '../../src/posts/store/posts';
import {
  insertEvent,
  insertImage,
  insertOrganizer,
  insertVenue,
  resetCalendar,
} from '../support/event-fixtures';
import { describeEachDb, type Caller } from '../support/harness';
import { RestClient, type RestResponse } from '../support/rest/rest-client';

/**
 * Event reads bring the event's venue in the same statement (issue 6): no read of `venues` of
 * its own, while the bodies still carry the whole venue, and the rows are exactly those the
 * plain reads of `events` and `venues` give (normalised booleans and decimals, same key order,
 * no `venue__*` key on an event).
 */

const FILTER: EventListFilter = {
  statuses: ['publish'],
  dates: [],
  searchWords: [],
  textReaders: { kind: 'none' },
  categoryIds: null,
  tagIds: null,
  venueIds: null,
  organizerIds: null,
  featured: null,
  include: null,
  parentId: null,
  venueWithCoords: false,
  venueStatuses: ['publish'],
  nearVenueIds: null,
};

/** A statement that reads `venues` as its own table (a join of it is part of an event read). */
const VENUES_QUERY = /\bfrom [`"]?venues\b/i;

// The REST reads' own statements are counted: the response cache (test/perf) is off.

describeEachDb(
  'event reads: the venue from the join',
  (env) => {
    const rest = new RestClient(env);
    let venue = 0;
    let draftVenue = 0;
    const events: Record<'withVenue' | 'noVenue' | 'draftVenue', number> = {
      withVenue: 0,
      noVenue: 0,
      draftVenue: 0,
    };

    beforeAll(async () => {
      await resetCalendar(env);
      const image = await insertImage(env, 'https://img.example/hall.jpg');
      venue = await insertVenue(env, {
        title: 'Joined Hall',
        city: 'Lyon',
        geo_lat: 45.7578137,
        geo_lng: 4.8320114,
      });
      // Every kind of column: a boolean off, text, an image: all must survive the aliasing.
      await env
        .db('venues')
        .where({ id: venue })
        .update({ show_map: false, address: '1 Rue', zip: '69001', image_id: image });
      draftVenue = await insertVenue(env, { title: 'Unfinished Hall', status: 'draft' });
      const organizer = await insertOrganizer(env);
      const at = (day: number) => `2027-04-${String(day).padStart(2, '0')} 20:00:00`;
      events.withVenue = await insertEvent(env, {
        title: 'Joined',
        slug: 'joined',
        start: at(1),
        venue_id: venue,
        organizers: [organizer],
      });
      events.noVenue = await insertEvent(env, { title: 'Roaming', start: at(2) });
      events.draftVenue = await insertEvent(env, {
        title: 'Hidden venue',
        start: at(3),
        venue_id: draftVenue,
      });
      for (let day = 4; day < 10; day++) {
        await insertEvent(env, { title: `More ${day}`, start: at(day), venue_id: venue });
      }
    });

    /** The response and the SQL a request sent. */
    async function traced(path: string, as: Caller = 'anonymous') {
      let response!: RestResponse;
      const statements = await env.statementsOf(async () => {
        response = await rest.get(path, { as });
      });
      expect(response.status).toBe(200);
      return { body: response.body, statements };
    }

    it('VENUE_COLUMNS is every column of the venues table', async () => {
      const columns = Object.keys(await env.db('venues').columnInfo());
      expect([...VENUE_COLUMNS].sort()).toEqual(columns.sort());
    });

    it('gives the rows the plain reads of events and venues give, byte for byte', async () => {
      const ids = Object.values(events);
      const plainEvents = await findByIds(env.db, 'events', ids);
      const plainVenues = await findByIds(env.db, 'venues', [venue, draftVenue]);
      const byId = <T extends { id: number }>(rows: T[]) =>
        JSON.stringify([...rows].sort((a, b) => a.id - b.id));
      const expectPlain = (read: EventsRead, eventIds: number[]) => {
        expect(byId(read.events)).toBe(byId(plainEvents.filter((e) => eventIds.includes(e.id))));
        const venueIds = new Set(read.events.map((e) => e.venue_id));
        expect(byId(read.venues)).toBe(byId(plainVenues.filter((v) => venueIds.has(v.id))));
      };

      expectPlain(await findEventsByIds(env.db, ids), ids);
      expectPlain(await findEventBySlug(env.db, 'joined'), [events.withVenue]);
      const page = await findEventPage(env.db, FILTER, 3, 0);
      expectPlain(page, ids);
      expect(page.venues.map((v) => v.id).sort()).toEqual([venue, draftVenue].sort());
      expect(typeof page.venues.find((v) => v.id === venue)?.geo_lat).toBe('number');
      // An event without a venue brings none: the loader stays as it was.
      expect(await findEventsByIds(env.db, [events.noVenue])).toMatchObject({ venues: [] });
    });

    it('answers a single event, by id and by slug, with no query on venues', async () => {
      const own = (await traced(`/venues/${venue}`)).body;
      for (const path of [`/events/${events.withVenue}`, '/events/by-slug/joined']) {
        const { body, statements } = await traced(path);
        expect(statements.filter((sql) => VENUES_QUERY.test(sql))).toEqual([]);
        // The event with its venue, its organizers and terms (one statement), the venue's image.
        expect(statements).toHaveLength(2);
        // The nested venue is the venue's own single read (json_ld included).
        expect(body.venue).toEqual(own);
        expect(body.venue).toMatchObject({ venue: 'Joined Hall', geo_lat: 45.7578137 });
      }
    });

    it('answers a list page with no query on venues, each event with its whole venue', async () => {
      // Lists show no json_ld: otherwise the venue's own single read.
      const own = (await traced(`/venues/${venue}`)).body;
      delete own.json_ld;
      const { body, statements } = await traced('/events?per_page=20&start_date=2027-04-01');
      expect(statements.filter((sql) => VENUES_QUERY.test(sql))).toEqual([]);
      expect(body.events).toHaveLength(9);
      for (const event of body.events) {
        if (event.id === events.noVenue || event.id === events.draftVenue) continue;
        expect(event.venue).toEqual(own);
      }
    });

    it('still lets the resolvers decide who sees the venue', async () => {
      const anonymous = await traced(`/events/${events.draftVenue}`);
      expect(anonymous.body.venue).toEqual([]);
      expect((await traced(`/events/${events.noVenue}`)).body.venue).toEqual([]);
      const admin = await traced(`/events/${events.draftVenue}`, 'administrator');
      expect(admin.body.venue).toMatchObject({ id: draftVenue, status: 'draft' });
      expect(admin.statements.filter((sql) => VENUES_QUERY.test(sql))).toEqual([]);
    });

    it('answers GraphQL events and event with their venues from the join', async () => {
      let data: any;
      const statements = await env.statementsOf(async () => {
        data = await env.ok(
          `query($id: Int!) {
          event(id: $id) { id venue { id venue city geo_lat show_map } }
          events(per_page: 20, start_date: "2027-04-01") { events { id venue { id venue } } }
        }`,
          { id: events.withVenue },
        );
      });
      const expected = { id: venue, venue: 'Joined Hall' };
      expect(data.event.venue).toEqual({
        ...expected,
        city: 'Lyon',
        geo_lat: 45.7578137,
        show_map: false,
      });
      const withVenue = data.events.events.find((e: any) => e.id === events.withVenue);
      expect(withVenue.venue).toEqual(expected);
      expect(statements.filter((sql) => VENUES_QUERY.test(sql))).toEqual([]);
    });
  },
  { RESPONSE_CACHE: 'off' },
);
