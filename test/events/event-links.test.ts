import {
  EVENT_COLUMNS,
  findEventBySlug,
  findEventsByIds,
  findEventsWithLinks,
} from '../../src/events/store/event-reads';
import { linksOfEvents, ORGANIZER_COLUMNS, TERM_COLUMNS } from '../../src/events/store/links';
import { findByIds } from '../../src/posts/store/posts';
import { findTermsByIds } from '../../src/terms/store/terms';
import {
  insertEvent,
  insertImage,
  insertOrganizer,
  insertTerm,
  insertVenue,
  resetCalendar,
} from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';

/**
 * An event's organizers and terms come from one statement (a UNION ALL of both link tables,
 * src/events/store/links.ts): the rows must be exactly those the plain reads of `organizers`
 * and `terms` give — same values, types and key order — each list in link order, and an event
 * without links gets empty lists.
 */

describeEachDb('event links: organizers and terms in one statement', (env) => {
  let ids: { both: number; organizersOnly: number; termsOnly: number; none: number };
  let organizers: number[];
  let terms: { categories: number[]; tags: number[] };

  beforeAll(async () => {
    await resetCalendar(env);
    const image = await insertImage(env, 'https://example.com/o.png');
    organizers = [
      await insertOrganizer(env, { title: 'Zed', email: 'zed@example.com' }),
      await insertOrganizer(env, { title: 'Amy', status: 'draft' }),
      await insertOrganizer(env, { title: 'Bo' }),
    ];
    await env.db('organizers').where({ id: organizers[2] }).update({ image_id: image });
    const parent = await insertTerm(env, 'category', 'Parent', { count: 7 });
    terms = {
      categories: [await insertTerm(env, 'category', 'Child'), parent],
      tags: [await insertTerm(env, 'tag', 'Tag B'), await insertTerm(env, 'tag', 'Tag A')],
    };
    await env.db('terms').where({ id: terms.categories[0] }).update({ parent_id: parent });
    ids = {
      // Links inserted in an order that is not the id order.
      both: await insertEvent(env, {
        start: '2027-01-01 10:00:00',
        organizers: [organizers[2]!, organizers[0]!, organizers[1]!],
        categories: terms.categories,
        tags: terms.tags,
      }),
      organizersOnly: await insertEvent(env, {
        start: '2027-01-02 10:00:00',
        organizers: [organizers[1]!],
      }),
      termsOnly: await insertEvent(env, {
        start: '2027-01-03 10:00:00',
        tags: [terms.tags[1]!],
      }),
      none: await insertEvent(env, { start: '2027-01-04 10:00:00' }),
    };
    const venue = await insertVenue(env, { title: 'Hall', geo_lat: 45.5, geo_lng: -122.25 });
    await env.db('venues').where({ id: venue }).update({ image_id: image, show_map: true });
    await env
      .db('events')
      .whereIn('id', [ids.both, ids.termsOnly])
      .update({ venue_id: venue, image_id: image, all_day: true, cost: '5' });
  });

  it('the column lists are every column of the organizers and terms tables', async () => {
    const organizerColumns = Object.keys(await env.db('organizers').columnInfo());
    const termColumns = Object.keys(await env.db('terms').columnInfo());
    expect([...ORGANIZER_COLUMNS].sort()).toEqual(organizerColumns.sort());
    expect([...TERM_COLUMNS].sort()).toEqual(termColumns.sort());
  });

  it('gives the rows of the plain reads, in link order, in one statement', async () => {
    const order = [ids.none, ids.termsOnly, ids.both, ids.organizersOnly];
    let links!: Awaited<ReturnType<typeof linksOfEvents>>;
    const statements = await env.countQueries(async () => {
      links = await linksOfEvents(env.db, order);
    });
    expect(statements).toBe(1);
    const plainOrganizers = await findByIds(env.db, 'organizers', organizers);
    const organizer = (id: number) => plainOrganizers.find((o) => o.id === id);
    const plainTerms = await findTermsByIds(env.db, [...terms.categories, ...terms.tags]);
    const term = (id: number) => plainTerms.find((t) => t.id === id);
    expect(links).toStrictEqual([
      { organizers: [], terms: [] },
      { organizers: [], terms: [term(terms.tags[1]!)] },
      {
        organizers: [
          organizer(organizers[2]!),
          organizer(organizers[0]!),
          organizer(organizers[1]!),
        ],
        terms: [...terms.categories, ...terms.tags].map(term),
      },
      { organizers: [organizer(organizers[1]!)], terms: [] },
    ]);
    // Same key order as the plain reads (the REST bodies' key order follows the schema, but
    // exports and JSON-LD walk rows).
    const both = links[2]!;
    expect(Object.keys(both.organizers[0]!)).toEqual(Object.keys(organizer(organizers[2]!)!));
    expect(Object.keys(both.terms[0]!)).toEqual(Object.keys(term(terms.categories[0]!)!));
    expect(both.organizers[0]!.image_id).toEqual(expect.any(Number));
    expect(both.terms[0]!.parent_id).toBe(terms.categories[1]);
    expect(both.terms[1]!.count).toBe(7);
  });

  it('EVENT_COLUMNS is every column of the events table, in table order', async () => {
    expect([...EVENT_COLUMNS]).toEqual(Object.keys(await env.db('events').columnInfo()));
  });

  it('reads events with their venues and links in one statement, as the plain reads give them', async () => {
    const missing = 2 ** 31 - 1;
    const order = [ids.organizersOnly, missing, ids.both, ids.none, ids.termsOnly];
    let read!: Awaited<ReturnType<typeof findEventsWithLinks>>;
    const statements = await env.countQueries(async () => {
      read = await findEventsWithLinks(env.db, order);
    });
    expect(statements).toBe(1);
    const plain = await findEventsByIds(env.db, order);
    const byId = <T extends { id: number }>(rows: T[]) =>
      [...rows].sort((a, b) => a.id - b.id).map((row) => [row, Object.keys(row)]);
    // Same values, types and key order as the plain read (the union answers integers as text
    // on MariaDB: they are numbers again).
    expect(byId(read.events)).toStrictEqual(byId(plain.events));
    expect(byId(read.venues)).toStrictEqual(byId(plain.venues));
    expect(read.venues).toHaveLength(1);
    expect(read.venues[0]).toMatchObject({
      geo_lat: 45.5,
      show_map: true,
      image_id: expect.any(Number),
    });
    const found = [ids.organizersOnly, ids.both, ids.none, ids.termsOnly];
    expect([...read.links.keys()].sort()).toEqual([...found].sort());
    const links = await linksOfEvents(env.db, found);
    expect(found.map((id) => read.links.get(id))).toStrictEqual(links);
    expect(read.links.get(ids.none)).toStrictEqual({ organizers: [], terms: [] });
  });

  it('reads the event of a slug with its venue and links in one statement', async () => {
    const [event] = (await findEventsByIds(env.db, [ids.both])).events;
    let read!: Awaited<ReturnType<typeof findEventBySlug>>;
    const statements = await env.countQueries(async () => {
      read = await findEventBySlug(env.db, event!.slug);
    });
    expect(statements).toBe(1);
    expect(read.events).toStrictEqual([event]);
    expect([...read.links]).toStrictEqual([
      [ids.both, (await linksOfEvents(env.db, [ids.both]))[0]],
    ]);
    expect(await findEventBySlug(env.db, 'no-such-slug')).toStrictEqual({
      events: [],
      venues: [],
      links: new Map(),
    });
  });

  it('answers no event with no statement', async () => {
    const statements = await env.countQueries(async () => {
      expect(await linksOfEvents(env.db, [])).toEqual([]);
    });
    expect(statements).toBe(0);
  });
});
