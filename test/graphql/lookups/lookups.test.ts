import { describeEachDb } from '../../support/harness';
import {
  insertEvent,
  insertOrganizer,
  insertTerm,
  insertVenue,
  resetCalendar,
} from '../../support/event-fixtures';
import { RestClient } from '../../support/rest/rest-client';

/**
 * Soft lookups, `node`/`nodes` and `DateTime` (issue 20, items 3 and 4), on 40 published events
 * and a draft: a miss is null with NOT_FOUND at its path while siblings answer; categories and
 * tags by slug; every entity found again by its global id; typed times are REST's UTC instants.
 */

describeEachDb('lookups, node and DateTime', (env) => {
  const ids: number[] = [];
  let draft: number;
  let venue: number;
  let hiddenVenue: number;
  let organizer: number;
  let category: number;
  let tag: number;

  beforeAll(async () => {
    await resetCalendar(env);
    venue = await insertVenue(env, { title: 'Main Hall' });
    hiddenVenue = await insertVenue(env, { title: 'Secret Cellar', status: 'draft' });
    organizer = await insertOrganizer(env, { title: 'Jazz Society' });
    category = await insertTerm(env, 'category', 'Concerts');
    tag = await insertTerm(env, 'tag', 'Outdoor');
    for (let i = 0; i < 40; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      ids.push(
        await insertEvent(env, {
          title: `Event ${i}`,
          start: `2026-12-${day} 19:00:00`,
          end: `2026-12-${day} 21:00:00`,
          timezone: i % 2 ? 'America/New_York' : 'Europe/Paris',
          venue_id: venue,
          organizers: [organizer],
          categories: [category],
          tags: [tag],
        }),
      );
    }
    draft = await insertEvent(env, {
      title: 'Draft',
      status: 'draft',
      start: '2026-12-02 10:00:00',
    });
  });

  it('answers a missing event as null with NOT_FOUND at its path; siblings still answer', async () => {
    const result = await env.gql(
      `{ event(id: 99999999) { id } venue(id: ${venue}) { venue } events(per_page: 1) { total } }`,
    );
    expect(result.data).toEqual({
      event: null,
      venue: { venue: 'Main Hall' },
      events: { total: 40 },
    });
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({
      path: ['event'],
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('answers every single lookup softly', async () => {
    const result = await env.gql(`{
      event_by_slug(slug: "nope") { id } venue(id: 99999998) { id } venue_by_slug(slug: "nope") { id }
      organizer(id: 99999997) { id } organizer_by_slug(slug: "nope") { id }
      category(id: 99999996) { id } tag(id: 99999995) { id }
      category_by_slug(slug: "nope") { id } tag_by_slug(slug: "nope") { id } viewer { id }
    }`);
    const data = result.data as Record<string, unknown>;
    expect(Object.values(data).every((v) => v === null)).toBe(true);
    expect(result.errors!.map((e) => e.path![0]).sort()).toEqual(
      Object.keys(data)
        .filter((k) => k !== 'viewer')
        .sort(),
    );
    expect(result.errors!.every((e) => e.extensions!.code === 'NOT_FOUND')).toBe(true);
  });

  it('finds categories and tags by slug', async () => {
    const data = await env.ok(
      `{ category_by_slug(slug: "concerts") { id name } tag_by_slug(slug: "outdoor") { id name } }`,
    );
    expect(data).toEqual({
      category_by_slug: { id: category, name: 'Concerts' },
      tag_by_slug: { id: tag, name: 'Outdoor' },
    });
  });

  it('finds every entity again by its node_id, through node and nodes', async () => {
    const data = await env.ok(`{
      event(id: ${ids[0]}) { node_id global_id }
      venue(id: ${venue}) { node_id }
      organizer(id: ${organizer}) { node_id }
      category(id: ${category}) { node_id }
      tag(id: ${tag}) { node_id }
    }`);
    expect(data.event.node_id).toBe(data.event.global_id);
    const nodeIds = [data.event, data.venue, data.organizer, data.category, data.tag].map(
      (r: { node_id: string }) => r.node_id,
    );
    expect(new Set(nodeIds).size).toBe(5);
    const query = `query ($id: ID!, $ids: [ID!]!) {
      node(id: $id) { __typename node_id ... on Event { id title } }
      nodes(ids: $ids) { __typename node_id ... on Venue { venue } ... on Organizer { organizer } ... on Category { name } ... on Tag { name } }
    }`;
    const found = await env.ok(query, { id: nodeIds[0], ids: nodeIds });
    expect(found.node).toEqual({
      __typename: 'Event',
      node_id: nodeIds[0],
      id: ids[0],
      title: 'Event 0',
    });
    expect(found.nodes.map((n: { __typename: string }) => n.__typename)).toEqual([
      'Event',
      'Venue',
      'Organizer',
      'Category',
      'Tag',
    ]);
    expect(found.nodes.map((n: { node_id: string }) => n.node_id)).toEqual(nodeIds);
    expect(found.nodes[1].venue).toBe('Main Hall');
    expect(found.nodes[3].name).toBe('Concerts');
  });

  it('hides drafts from anonymous callers in node and nodes, as missing records', async () => {
    const { event } = await env.ok(`{ event(id: ${ids[0]}) { node_id } }`);
    const draftId = event.node_id.replace(/id=\d+$/, `id=${draft}`);
    const hiddenVenueId = event.node_id.replace(/id=\d+$/, `id=${hiddenVenue}`);
    const query = `query ($id: ID!, $ids: [ID!]!) { node(id: $id) { node_id } nodes(ids: $ids) { node_id } }`;
    const variables = {
      id: draftId,
      ids: [event.node_id, draftId, hiddenVenueId, 'elsewhere?id=1'],
    };
    const anonymous = await env.gql(query, variables);
    expect(anonymous.data).toEqual({
      node: null,
      nodes: [{ node_id: event.node_id }, null, null, null],
    });
    expect(anonymous.errors!.map((e) => [e.path, e.extensions!.code])).toEqual(
      expect.arrayContaining([
        [['node'], 'NOT_FOUND'],
        [['nodes', 1], 'NOT_FOUND'],
        [['nodes', 2], 'NOT_FOUND'],
        [['nodes', 3], 'NOT_FOUND'],
      ]),
    );
    const editor = await env.gql(query, variables, { as: 'editor' });
    expect(editor.data).toEqual({
      node: { node_id: draftId },
      nodes: [{ node_id: event.node_id }, { node_id: draftId }, { node_id: hiddenVenueId }, null],
    });
  });

  it('batches nodes through the loaders: one statement per kind of record', async () => {
    const { event } = await env.ok(`{ event(id: ${ids[0]}) { node_id } }`);
    const nodeIds = ids.slice(0, 20).map((id) => event.node_id.replace(/id=\d+$/, `id=${id}`));
    let titles: string[] = [];
    const statements = await env.countQueries(async () => {
      const data = await env.ok(
        `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Event { title } } }`,
        { ids: nodeIds },
      );
      titles = data.nodes.map((n: { title: string }) => n.title);
    });
    expect(titles).toEqual(ids.slice(0, 20).map((_, i) => `Event ${i}`));
    // Events (with their venues), venues and organizers: one statement each for the 20 ids.
    expect(statements).toBeLessThanOrEqual(3);
  });

  it('refuses more than 50 ids in nodes', async () => {
    const ids51 = Array.from({ length: 51 }, (_, i) => `x?id=${i + 1}`);
    const result = await env.gql(`query ($ids: [ID!]!) { nodes(ids: $ids) { node_id } }`, {
      ids: ids51,
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('answers DateTime instants equal to the REST utc_* values', async () => {
    const rest = new RestClient(env);
    const listed = await rest.request('GET', '/events?per_page=50&start_date=2026-11-01');
    expect(listed.status).toBe(200);
    const data = await env.ok(
      `{ events(per_page: 50, start_date: "2026-11-01") { events { id starts_at ends_at published_at modified_at venue { published_at } } } }`,
    );
    expect(data.events.events).toHaveLength(40);
    const byId = new Map(listed.body.events.map((e: { id: number }) => [e.id, e]));
    for (const event of data.events.events) {
      const twin = byId.get(event.id) as Record<string, string>;
      expect(event.starts_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Date.parse(event.starts_at)).toBe(
        Date.parse(`${twin.utc_start_date!.replace(' ', 'T')}Z`),
      );
      expect(Date.parse(event.ends_at)).toBe(
        Date.parse(`${twin.utc_end_date!.replace(' ', 'T')}Z`),
      );
      expect(Date.parse(event.modified_at)).toBe(
        Date.parse(`${twin.modified_utc!.replace(' ', 'T')}Z`),
      );
      expect(Date.parse(event.published_at)).toBe(
        Date.parse(`${twin.date_utc!.replace(' ', 'T')}Z`),
      );
      expect(Number.isNaN(Date.parse(event.venue.published_at))).toBe(false);
      // The REST body carries none of the GraphQL-only fields.
      expect(twin).not.toHaveProperty('starts_at');
      expect(twin).not.toHaveProperty('node_id');
    }
  });
});
