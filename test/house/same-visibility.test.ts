import fs from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { exportContext, fetchPage } from '../../src/transfer/export-source';
import { describeEachDb, type Caller, type TestEnv } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';
import { cli, tempDir } from '../transfer/import-support';

/**
 * One visibility predicate per entity (issue 14): a published, a draft, a private and a
 * password-protected event, and a draft venue and organizer linked to the published one, read
 * through every read path — GraphQL list and single, REST list and single, the SOFA view, the
 * ICS feed, CSV over HTTP, the export source and `export:csv` — show an anonymous caller the same
 * events (the protected one listed with its details redacted, its single read locked) without
 * the draft venue and organizer, and an administrator everything.
 */

const DATES = { start_date: '2027-06-01 19:00:00', end_date: '2027-06-01 22:00:00' };
const ALL = ['Draft gig', 'Locked gig', 'Private gig', 'Public gig'];
const ANONYMOUS_SEES = ['Locked gig', 'Public gig'];

/**
 * What one read path shows: the events' titles; on the public event, its (draft) venue and
 * organizer; the details of the protected event (empty when redacted).
 */
interface Seen {
  titles: string[];
  venue: string | null;
  organizer: string | null;
  locked: string;
}

interface Shown {
  title: string;
  venue: string | null;
  organizer: string | null;
  description: string;
}

interface Made {
  ids: Record<string, number>;
  venueId: number;
}

const sorted = (titles: string[]) => [...titles].sort();

async function seed(env: TestEnv): Promise<Made> {
  const run = (query: string, variables: Record<string, unknown>) =>
    env.ok(query, variables, { as: 'administrator' });
  const venue = await run(`mutation ($input: VenueInput!) { create_venue(input: $input) { id } }`, {
    input: { venue: 'Draft Hall', status: 'draft' },
  });
  const organizer = { organizer: 'Draft Crew', status: 'draft' };
  const venueId = venue.create_venue.id as number;
  const ids: Record<string, number> = {};
  const events: Record<string, Record<string, unknown>> = {
    'Public gig': { venue: { id: venueId }, organizer: [organizer], categories: ['Visible'] },
    'Draft gig': { status: 'draft' },
    'Private gig': { status: 'private' },
    'Locked gig': { password: 'sesame', description: '<p>Members only</p>' },
  };
  for (const [title, fields] of Object.entries(events)) {
    const made = await run(
      `mutation ($input: EventInput!) { create_event(input: $input) { id } }`,
      {
        input: { title, ...DATES, ...fields },
      },
    );
    ids[title] = made.create_event.id;
  }
  return { ids, venueId };
}

/** A single read counts as showing the event when it answers it, or locks it behind a password. */
function shownBySingle(status: number, code: unknown): boolean {
  return status === 200 || code === 'event-password-protected';
}

describeEachDb('the same visibility on every read path', (env) => {
  const rest = new RestClient(env);
  const tmp = tempDir();
  let made: Made;

  beforeAll(async () => {
    made = await seed(env);
  });
  afterAll(() => tmp.remove());

  async function sofa(as: Caller, path: string): Promise<{ status: number; body: any }> {
    const response = await env.app.yoga.fetch(`http://localhost/wp-json/calendar/rest${path}`, {
      headers: await env.authHeaders(as),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  /** Every list path, as `as` reads it. */
  const lists: Record<string, (as: Caller) => Promise<Seen>> = {
    'GraphQL events': async (as) => {
      const { events } = await env.ok(
        `{ events(per_page: 50) { events {
          title description venue { venue } organizer { organizer } } } }`,
        {},
        { as },
      );
      return seen(
        events.events.map((e: any) => ({
          title: e.title,
          venue: e.venue?.venue ?? null,
          organizer: e.organizer[0]?.organizer ?? null,
          description: e.description,
        })),
      );
    },
    'REST GET /events': async (as) => {
      const response = await rest.get('/events?per_page=50', { as });
      expect(response.status).toBe(200);
      return seen(
        response.body.events.map((e: any) => ({
          title: e.title,
          venue: Array.isArray(e.venue) ? null : e.venue.venue,
          organizer: e.organizer[0]?.organizer ?? null,
          description: e.description,
        })),
      );
    },
    'SOFA /events': async (as) => {
      const { body } = await sofa(as, '/events?per_page=50');
      return seen(
        body.events.map((e: any) => ({
          title: e.title,
          venue: e.venue?.venue ?? null,
          organizer: e.organizer[0]?.organizer ?? null,
          description: e.description,
        })),
      );
    },
    'ICS /events.ics': async (as) => {
      const response = await rest.get('/events.ics', { as });
      expect(response.status).toBe(200);
      const calendar = new ICAL.Component(ICAL.parse(response.text) as unknown[]);
      return seen(
        calendar.getAllSubcomponents('vevent').map((v) => ({
          title: String(v.getFirstPropertyValue('summary')),
          venue: (v.getFirstPropertyValue('location') as string | null)?.split('\n')[0] ?? null,
          organizer: (v.getFirstProperty('organizer')?.getParameter('cn') as string) ?? null,
          description: String(v.getFirstPropertyValue('x-alt-desc') ?? ''),
        })),
      );
    },
    'CSV /events?format=csv': async (as) => {
      const response = await rest.get('/events?format=csv', { as });
      expect(response.status).toBe(200);
      return seen(csvEvents(response.text));
    },
    'export source': async (as) => {
      const reader = exportContext(await env.context(as));
      const page = await fetchPage(reader, 'events', {}, 1, 500);
      return seen(
        page.items.map((e) => ({
          title: e.title,
          venue: e.venue?.venue ?? null,
          organizer: e.organizer[0]?.organizer ?? null,
          description: e.description,
        })),
      );
    },
  };

  /** Every single-read path: does it show this event to `as`? */
  const singles: Record<string, (as: Caller, id: number) => Promise<boolean>> = {
    'GraphQL event(id:)': async (as, id) => {
      const result = await env.gql(`query ($id: Int!) { event(id: $id) { id } }`, { id }, { as });
      return (
        !result.errors || result.errors[0]?.extensions?.rest_code === 'event-password-protected'
      );
    },
    'REST GET /events/<id>': async (as, id) => {
      const response = await rest.get(`/events/${id}`, { as });
      return shownBySingle(response.status, response.body?.code);
    },
    'SOFA /event/<id>': async (as, id) => {
      const { status, body } = await sofa(as, `/event/${id}`);
      return shownBySingle(status, body?.errors?.[0]?.extensions?.rest_code);
    },
    'ICS /events/<id>.ics': async (as, id) => {
      const response = await rest.get(`/events/${id}.ics`, { as });
      return shownBySingle(response.status, response.body?.code);
    },
  };

  function seen(events: Shown[]): Seen {
    const publicGig = events.find((e) => e.title === 'Public gig');
    return {
      titles: sorted(events.map((e) => e.title)),
      venue: publicGig?.venue ?? null,
      organizer: publicGig?.organizer ?? null,
      locked: events.find((e) => e.title === 'Locked gig')?.description ?? '',
    };
  }

  function csvEvents(text: string): Shown[] {
    return (parseCsv(text, { columns: true }) as Record<string, string>[]).map((e) => ({
      title: e.title!,
      venue: e.venue || null,
      organizer: e.organizers || null,
      description: e.description!,
    }));
  }

  const ANONYMOUS: Seen = { titles: ANONYMOUS_SEES, venue: null, organizer: null, locked: '' };
  const ADMIN: Seen = {
    titles: ALL,
    venue: 'Draft Hall',
    organizer: 'Draft Crew',
    locked: '<p>Members only</p>',
  };

  it.each(Object.keys(lists))(
    '%s: anonymous callers see the same events, no draft venue',
    async (name) => {
      expect(await lists[name]!('anonymous')).toEqual(ANONYMOUS);
    },
  );

  it.each(Object.keys(lists))(
    '%s: an administrator sees every event and the venue',
    async (name) => {
      expect(await lists[name]!('administrator')).toEqual(ADMIN);
    },
  );

  it.each(Object.keys(singles))('%s shows each event as the lists do', async (name) => {
    for (const as of ['anonymous', 'administrator'] as const) {
      const shown: string[] = [];
      for (const title of ALL) if (await singles[name]!(as, made.ids[title]!)) shown.push(title);
      expect([as, shown]).toEqual([as, as === 'anonymous' ? ANONYMOUS_SEES : ALL]);
    }
  });

  it('export:csv (the CLI, as the administrator) writes every event', async () => {
    const file = tmp.file('events.csv');
    expect((await cli(env, 'export:csv', file)).status).toBe(0);
    expect(seen(csvEvents(fs.readFileSync(file, 'utf8')))).toEqual(ADMIN);
  });

  it('lists the draft venue to an administrator only, on every venue path', async () => {
    const names = async (as: Caller) => ({
      graphql: (await env.ok(`{ venues { venues { venue } } }`, {}, { as })).venues.venues.map(
        (v: any) => v.venue,
      ),
      rest: (await rest.get('/venues', { as })).body.venues?.map((v: any) => v.venue) ?? [],
      sofa: (await sofa(as, '/venues')).body.venues.map((v: any) => v.venue),
      csv: (
        parseCsv((await rest.get('/venues?format=csv', { as })).text, { columns: true }) as {
          venue: string;
        }[]
      ).map((v) => v.venue),
      source: (
        await fetchPage(exportContext(await env.context(as)), 'venues', {}, 1, 500)
      ).items.map((v) => v.venue),
    });
    const none = { graphql: [], rest: [], sofa: [], csv: [], source: [] };
    expect(await names('anonymous')).toEqual(none);
    const hall = ['Draft Hall'];
    expect(await names('administrator')).toEqual({
      graphql: hall,
      rest: hall,
      sofa: hall,
      csv: hall,
      source: hall,
    });
    expect(made.venueId).toBeGreaterThan(0);
  });
});
