import { loadConfig } from '../../../src/config/config';
import { bumpListGeneration } from '../../../src/db/list-counts';
import { operationCost } from '../../../src/graphql/cost';
import { buildSchema } from '../../../src/graphql/schema';
import { parse } from 'graphql';
import {
  insertEvent,
  insertOrganizer,
  insertTerm,
  insertVenue,
  resetCalendar,
} from '../../support/event-fixtures';
import { describeEachDb, type TestEnv } from '../../support/harness';

/**
 * The venue, organizer, category and tag connections walk their lists' filter; nested
 * connections (a venue's events, an event's organizers …) are read per level, not per parent;
 * connections are costed by `first`/`last`, nested ones multiplied.
 */

interface Conn {
  total_count: number;
  edges: { cursor: string; node: { id: number; name: string } }[];
  page_info: { has_next_page: boolean; end_cursor: string | null };
}

const NAMES = [
  'Zenith',
  'apex',
  'Birch',
  'cedar',
  'Dune',
  'elm',
  'Fjord',
  'grove',
  'Harbor',
  'isle',
  'Jade',
  'kelp',
];

/** Each connection: its field, the name of its records' name field, its order input type. */
const LISTS = [
  ['venues_connection', 'venue', 'PlaceOrder'],
  ['organizers_connection', 'organizer', 'PlaceOrder'],
  ['categories_connection', 'name', 'TermOrder'],
  ['tags_connection', 'name', 'TermOrder'],
] as const;

async function walk(
  env: TestEnv,
  field: string,
  name: string,
  type: string,
  order: unknown,
): Promise<Conn[]> {
  const query = `query ($after: String, $order: [${type}!]) {
    c: ${field}(first: 5, after: $after, order_by: $order) {
      total_count edges { cursor node { id name: ${name} } } page_info { has_next_page end_cursor }
    } }`;
  const pages: Conn[] = [];
  let after: string | null = null;
  for (let i = 0; i < 20; i++) {
    const result: { c: Conn } = await env.ok<{ c: Conn }>(query, { after, order });
    const c = result.c;
    pages.push(c);
    if (!c.page_info.has_next_page) return pages;
    after = c.page_info.end_cursor;
  }
  throw new Error('the walk did not end');
}

const byName = (a: { name: string; id: number }, b: { name: string; id: number }): number =>
  Buffer.compare(Buffer.from(a.name.toLowerCase()), Buffer.from(b.name.toLowerCase())) ||
  a.id - b.id;

describeEachDb(
  'venue, organizer, category and tag connections',
  (env) => {
    const venues: number[] = [];
    const organizers: number[] = [];
    const categories: number[] = [];
    const tags: number[] = [];
    const events: number[] = [];

    beforeAll(async () => {
      await resetCalendar(env);
      for (const name of NAMES) {
        venues.push(await insertVenue(env, { title: name }));
        organizers.push(await insertOrganizer(env, { title: name }));
        categories.push(await insertTerm(env, 'category', name, { count: 4 }));
        tags.push(await insertTerm(env, 'tag', name, { count: 4 }));
      }
      // Hidden from anonymous lists: a draft venue and organizer, an unused category and tag.
      await insertVenue(env, { title: 'Apex draft', status: 'draft' });
      await insertOrganizer(env, { title: 'Apex draft', status: 'draft' });
      await insertTerm(env, 'category', 'Unused', { count: 0 });
      await insertTerm(env, 'tag', 'Unused', { count: 0 });
      // Four events per venue; each with three organizers, two categories and two tags.
      for (let i = 0; i < 48; i++) {
        const v = i % 12;
        events.push(
          await insertEvent(env, {
            title: `Show ${i}`,
            start: `2027-02-${String(1 + (i % 27)).padStart(2, '0')} 20:00:00`,
            venue_id: venues[v],
            organizers: [organizers[v]!, organizers[(v + 1) % 12]!, organizers[(v + 2) % 12]!],
            categories: [categories[v]!, categories[(v + 5) % 12]!],
            tags: [tags[v]!, tags[(v + 7) % 12]!],
          }),
        );
      }
      await env.db.transaction((trx) => bumpListGeneration(trx));
    });

    for (const [field, name, type] of LISTS) {
      it(`${field} walks every visible record once, by name, then in order_by`, async () => {
        const pages = await walk(env, field, name, type, null);
        const nodes = pages.flatMap((p) => p.edges.map((e) => e.node));
        expect(nodes).toHaveLength(12);
        expect(new Set(nodes.map((n) => n.id)).size).toBe(12);
        expect(pages.map((p) => p.edges.length)).toEqual([5, 5, 2]);
        expect(pages.every((p) => p.total_count === 12)).toBe(true);
        expect(nodes).toEqual([...nodes].sort(byName));
        expect(nodes.some((n) => /draft|Unused/.test(n.name))).toBe(false);
        const desc = (
          await walk(env, field, name, type, [{ field: 'NAME', direction: 'DESC' }])
        ).flatMap((p) => p.edges.map((e) => e.node));
        expect(desc).toEqual([...nodes].reverse());
        const ids = (await walk(env, field, name, type, [{ field: 'ID' }])).flatMap((p) =>
          p.edges.map((e) => e.node.id),
        );
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      });
    }

    it('keeps the lists’ filters: search, event, and a cursor of one list refused by another', async () => {
      const { c } = await env.ok<{ c: Conn }>(
        `{ c: venues_connection(search: "fjord") { total_count edges { node { id } } } }`,
      );
      expect(c.edges.map((e) => e.node.id)).toEqual([venues[6]]);
      const { t } = await env.ok<{ t: Conn }>(
        `{ t: tags_connection(event: ${events[0]}) { total_count edges { node { id } } } }`,
      );
      expect(t.edges.map((e) => e.node.id).sort()).toEqual([tags[0], tags[7]].sort());
      const venuePage = (await walk(env, 'venues_connection', 'venue', 'PlaceOrder', null))[0]!;
      const refused = await env.gql(
        `query ($after: String) { organizers_connection(after: $after) { total_count } }`,
        { after: venuePage.page_info.end_cursor },
      );
      expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    });

    const NESTED = (n: number) => `{
    venues_connection(first: ${n}) { edges { node { id
      events_connection(first: 2) { total_count edges { node { id
        organizers_connection(first: 2) { total_count edges { node { id } } page_info { has_next_page } }
        tags_connection(first: 1, order_by: [{ field: NAME, direction: DESC }]) { edges { node { id } } }
      } } page_info { has_next_page end_cursor } }
    } } } }`;

    it('reads nested connections per level, not per parent, with the results of each parent’s own', async () => {
      const few = await env.countQueries(() => env.ok(NESTED(3)));
      let data: any;
      const many = await env.countQueries(async () => {
        data = await env.ok(NESTED(12));
      });
      expect(many).toBe(few);
      expect(many).toBeLessThanOrEqual(8);
      for (const edge of data.venues_connection.edges) {
        const nested = edge.node.events_connection;
        const own = await env.ok<{ c: { total_count: number; edges: { node: { id: number } }[] } }>(
          `{ c: events_connection(first: 2, venue: [${edge.node.id}]) { total_count edges { node { id } } } }`,
        );
        expect(nested.total_count).toBe(4);
        expect(nested.edges.map((e: any) => e.node.id)).toEqual(own.c.edges.map((e) => e.node.id));
        expect(nested.page_info.has_next_page).toBe(true);
        for (const e of nested.edges) {
          expect(e.node.organizers_connection.total_count).toBe(3);
          expect(e.node.organizers_connection.edges).toHaveLength(2);
          expect(e.node.organizers_connection.page_info.has_next_page).toBe(true);
          expect(e.node.tags_connection.edges).toHaveLength(1);
        }
      }
    });

    it('walks a nested connection with its cursors', async () => {
      const query = `query ($after: String) { venues_connection(first: 1) { edges { node {
      events_connection(first: 3, after: $after, order_by: [{ field: ID, direction: DESC }]) {
        edges { node { id } } page_info { has_next_page end_cursor } } } } } }`;
      const seen: number[] = [];
      let after: string | null = null;
      for (;;) {
        const data: any = await env.ok(query, { after });
        const conn = data.venues_connection.edges[0].node.events_connection;
        seen.push(...conn.edges.map((e: any) => e.node.id));
        if (!conn.page_info.has_next_page) break;
        after = conn.page_info.end_cursor;
      }
      // The first venue by name is "apex" (index 1): events 1, 13, 25, 37.
      expect(seen).toEqual([events[37], events[25], events[13], events[1]]);
    });

    it('prices connections by first/last, nested ones multiplied, and refuses before any SQL', async () => {
      const config = loadConfig({});
      const settings = { perPageDefault: config.perPageDefault, perPageMax: config.perPageMax };
      const schema = buildSchema();
      const cost = (q: string): number => operationCost(schema, parse(q), {}, undefined, settings);
      expect(cost('{ events_connection(first: 5) { edges { node { id } } } }')).toBe(2 + 5);
      expect(cost('{ events_connection(last: 50) { edges { node { id } } } }')).toBe(2 + 50);
      expect(cost('{ events_connection { total_count page_info { has_next_page } } }')).toBe(2);
      const attack = `{ tags_connection(first: 50) { edges { node {
      events_connection(first: 50) { edges { node {
        organizers_connection(first: 50) { edges { node { id } } } } } } } } } }`;
      // 2 + 50 × (1 + 2 + 50 × (1 + 2 + 50 × 1))
      expect(cost(attack)).toBe(132_652);
      let response: any;
      const statements = await env.countQueries(async () => {
        response = await env.gql(attack);
      });
      expect(statements).toBe(0);
      expect(response.errors[0].extensions).toMatchObject({
        code: 'COST_LIMIT_EXCEEDED',
        found: 132_652,
      });
    });
  },
  // At the default depth limit (7): a connection's `edges { node }` is no level of its own.
);
