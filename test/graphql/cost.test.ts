import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../src/config/config';
import { operationCost, worstCaseVariables } from '../../src/graphql/cost';
import { buildSchema } from '../../src/graphql/schema';
import { serverOptions } from '../../src/http/server-options';
import { createApp, type App } from '../../src/http/server';
import { compileRoutes } from '../../src/rest/compile';
import { ROUTES } from '../../src/rest/routes';
import {
  insertEvent,
  insertOrganizer,
  insertTerm,
  insertVenue,
  resetCalendar,
} from '../support/event-fixtures';
import { describeEachDb, type Caller, type TestEnv } from '../support/harness';

/**
 * Query cost and runtime budgets (issue 16, docs/security.md "Query cost and runtime budgets"):
 * nested pages are priced by the rows they multiply and refused before any SQL; what runs is
 * charged statement by statement against a cap and a deadline; nested lists of many parents are
 * read in a few statements per level, with the same results as each parent's own list.
 */

const ATTACK =
  '{tags(per_page:50){tags{events(per_page:50){events{organizer{events(per_page:50){total}}}}}}}';
const ATTACK_BODY = ATTACK.slice(1, -1);
const ALIASED = `{a:${ATTACK_BODY} b:${ATTACK_BODY} c:${ATTACK_BODY}}`;

const deep = (perPage: number): string =>
  `{ categories(per_page: ${perPage}) { categories { id events(per_page: ${perPage}) { total events { id venue { venue } organizer { organizer } tags { name } } } } } }`;

async function post(
  app: App,
  query: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await app.yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...headers,
    },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: await response.json() };
}

/** Another app on the same database with some settings changed. */
function appWith(env: TestEnv, changes: Partial<Config>): Promise<App> {
  return createApp({ config: { ...env.config, ...changes }, db: env.db, now: () => env.now });
}

describe('REST operations and the cost budget', () => {
  it('keeps every one of the 36 REST routes under the anonymous budget at PER_PAGE_MAX', () => {
    const config = loadConfig({});
    const schema = buildSchema();
    const routes = compileRoutes(schema, ROUTES);
    expect(routes).toHaveLength(36);
    const settings = { perPageDefault: config.perPageDefault, perPageMax: config.perPageMax };
    const over: string[] = [];
    for (const route of routes) {
      if (!route.document) continue; // the namespace descriptions run no operation
      const operation = route.document.definitions[0]!;
      if (operation.kind !== 'OperationDefinition') throw new Error('not an operation');
      const variables = worstCaseVariables(schema, operation, settings);
      const cost = operationCost(schema, route.document, variables, undefined, settings);
      expect(cost).toBeGreaterThan(0);
      if (cost > config.graphqlCostAnonymous) over.push(`${route.row.path}: ${cost}`);
    }
    expect(over).toEqual([]);
  });
});

describeEachDb('query cost and runtime budgets', (env) => {
  const ids = { categories: [] as number[], tags: [] as number[], venues: [] as number[] };
  const organizers: number[] = [];

  beforeAll(async () => {
    await resetCalendar(env);
    for (const name of ['Music', 'Theatre', 'Dance', 'Film']) {
      ids.categories.push(await insertTerm(env, 'category', name, { count: 15 }));
    }
    for (const name of ['Free', 'Family', 'Outdoor', 'Late', 'Local', 'Premiere']) {
      ids.tags.push(await insertTerm(env, 'tag', name, { count: 20 }));
    }
    for (let i = 0; i < 3; i++) ids.venues.push(await insertVenue(env, { title: `Hall ${i}` }));
    for (let i = 0; i < 4; i++) organizers.push(await insertOrganizer(env, { title: `Org ${i}` }));
    for (let i = 0; i < 60; i++) {
      await insertEvent(env, {
        title: `Show ${i}`,
        start: `2027-01-${String((i % 28) + 1).padStart(2, '0')} 19:00:00`,
        status: i % 10 === 9 ? 'draft' : 'publish',
        venue_id: ids.venues[i % 3],
        categories: [ids.categories[i % 4]!],
        tags: [ids.tags[i % 6]!, ids.tags[(i + 1) % 6]!],
        organizers: i % 2 ? [organizers[i % 4]!] : [organizers[i % 4]!, organizers[(i + 2) % 4]!],
      });
    }
    // A small venue: one event, so its second page does not exist while the halls' do.
    ids.venues.push(await insertVenue(env, { title: 'Annex' }));
    await insertEvent(env, {
      title: 'Recital',
      start: '2027-02-01 18:00:00',
      venue_id: ids.venues[3],
    });
  });

  describe('the estimated cost', () => {
    it('refuses the nested-pages attack and its 3-alias variant before any SQL', async () => {
      for (const [query, cost] of [
        [ATTACK, 25_152],
        [ALIASED, 3 * 25_152],
      ] as const) {
        let response!: { status: number; body: any };
        const statements = await env.countQueries(async () => {
          response = await post(env.app, query);
        });
        expect(statements).toBe(0);
        expect(response.status).toBe(400);
        expect(response.body.data).toBeUndefined();
        expect(response.body.errors).toHaveLength(1);
        const [error] = response.body.errors;
        expect(error.extensions).toEqual({ code: 'COST_LIMIT_EXCEEDED', limit: 5000, found: cost });
        expect(error.message).toContain(
          `estimated cost is ${cost}; the limit for anonymous callers is 5000`,
        );
      }
    });

    it('gives authenticated callers their own budget, and refuses the attack to them too', async () => {
      // 2 + 50 × (1 + 2 + 50 × (1 + 1 + 3)) = 12,652: above the anonymous budget only.
      const mid =
        '{ tags(per_page: 50) { tags { events(per_page: 50) { events { venue { venue } organizer { organizer } } } } } }';
      const anonymous = await post(env.app, mid);
      expect(anonymous.status).toBe(400);
      expect(anonymous.body.errors[0].extensions).toMatchObject({
        code: 'COST_LIMIT_EXCEEDED',
        found: 12_652,
      });
      const auth = await env.authHeaders('subscriber');
      const signedIn = await post(env.app, mid, auth);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.errors).toBeUndefined();
      expect(signedIn.body.data.tags.tags).toHaveLength(6);
      // Statements beyond authentication: none for the refused attack.
      const authOnly = await env.countQueries(() => post(env.app, '{ viewer { id } }', auth));
      let refused!: { status: number; body: any };
      const attack = await env.countQueries(async () => {
        refused = await post(env.app, ATTACK, auth);
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].extensions).toMatchObject({
        code: 'COST_LIMIT_EXCEEDED',
        limit: 20_000,
      });
      expect(refused.body.errors[0].message).toContain('authenticated callers is 20000');
      expect(attack).toBe(authOnly);
    });

    it('counts variables, SDL defaults and skipped fields as the request will run them', async () => {
      const response = await env.app.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query:
            'query($n: Int, $skip: Boolean!) { tags(per_page: $n) { tags { events(per_page: $n) { events { organizer { events(per_page: $n) { total } } } } } } b: tags @skip(if: $skip) { total } }',
          variables: { n: 50, skip: true },
        }),
      });
      // Plain JSON clients get 200 with the error, as for the other document limits.
      expect(response.status).toBe(200);
      const body = (await response.json()) as any;
      expect(body.errors[0].extensions).toMatchObject({ found: 25_152 });
      // Without per_page the default page size (10) applies: 2 + 10 × (3 + 10 × 10) = 1,032.
      const small = await post(
        env.app,
        '{ tags { tags { events { events { organizer { events { total } } } } } } }',
      );
      expect(small.status).toBe(200);
      expect(small.body.errors).toBeUndefined();
    });
  });

  describe('under attack', () => {
    let server: Server;
    let base: string;

    beforeAll(async () => {
      server = createServer(serverOptions(env.config), env.app.yoga);
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      server.closeAllConnections();
      server.close();
    });

    async function timed(path: string, init?: RequestInit): Promise<[number, number]> {
      const start = performance.now();
      const response = await fetch(`${base}${path}`, init);
      await response.arrayBuffer();
      return [response.status, performance.now() - start];
    }

    it('refuses 20 concurrent copies of each attack within 2 s while /healthz and a REST list stay fast', async () => {
      // Warm both probes (first requests compile and open connections).
      await timed('/healthz');
      await timed('/wp-json/calendar/events/v1/events?per_page=5');
      const attacks = [ATTACK, ALIASED].flatMap((query) =>
        Array.from({ length: 20 }, () =>
          timed('/graphql', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/graphql-response+json',
            },
            body: JSON.stringify({ query }),
          }),
        ),
      );
      let done = false;
      const all = Promise.all(attacks).finally(() => (done = true));
      const probes: [string, number, number][] = [];
      do {
        for (const path of ['/healthz', '/wp-json/calendar/events/v1/events?per_page=5']) {
          const [status, ms] = await timed(path);
          probes.push([path, status, ms]);
        }
      } while (!done);
      const answers = await all;
      expect(answers.map(([status]) => status)).toEqual(answers.map(() => 400));
      expect(Math.max(...answers.map(([, ms]) => ms))).toBeLessThan(2000);
      expect(probes.filter(([, status]) => status !== 200)).toEqual([]);
      expect(probes.filter(([, , ms]) => ms >= 250)).toEqual([]);
    });
  });

  describe('nested lists', () => {
    it('read a deep legitimate query in a bounded number of statements, whatever per_page', async () => {
      const counts: number[] = [];
      for (const perPage of [2, 10]) {
        let data: any;
        counts.push(
          await env.countQueries(async () => {
            data = await env.ok(deep(perPage));
          }),
        );
        expect(data.categories.categories).toHaveLength(Math.min(perPage, 4));
        for (const category of data.categories.categories) {
          expect(category.events.total).toBeGreaterThan(0);
          expect(category.events.events).toHaveLength(Math.min(perPage, category.events.total));
        }
      }
      // categories (count, page) + events of every category (references, totals, pages) +
      // organizers + terms of every event: per level, never per parent.
      expect(counts[0]).toBe(counts[1]);
      expect(counts[0]).toBeLessThanOrEqual(8);
    });

    const NESTED_PAGE =
      'events(per_page: 4, page: 2) { total total_pages rest_url next_rest_url previous_rest_url events { id title status venue { id } } }';

    it.each([
      ['categories', 'category'],
      ['tags', 'tag'],
      ['venues', 'venue'],
      ['organizers', 'organizer'],
    ])(
      '%s: each parent lists the same events (or error) as its own single read',
      async (list, single) => {
        for (const caller of ['anonymous', 'administrator'] as Caller[]) {
          const batched = await env.gql<any>(
            `{ ${list}(per_page: 10) { ${list} { id ${NESTED_PAGE} } } }`,
            {},
            { as: caller },
          );
          const parents = batched.data![list][list] as { id: number; events: unknown }[];
          expect(parents.length).toBeGreaterThan(1);
          for (const [index, parent] of parents.entries()) {
            const alone = await env.gql<any>(
              `{ ${single}(id: ${parent.id}) { ${NESTED_PAGE} } }`,
              {},
              { as: caller },
            );
            const error = batched.errors?.find((e) => Number(e.path?.[2]) === index);
            expect({ id: parent.id, events: parent.events, error: error?.message }).toEqual({
              id: parent.id,
              events: alone.data?.[single]?.events ?? null,
              error: alone.errors?.[0]?.message,
            });
          }
        }
      },
    );

    it('answers a page past the end of one parent as that parent’s error only', async () => {
      // Each hall has 18 published events: page 2 of 10 exists; the annex has one event.
      const result = await env.gql<any>(
        '{ venues { venues { venue events(per_page: 10, page: 2) { total events { id } } } } }',
      );
      const venues = result.data!.venues.venues as { venue: string; events: any }[];
      expect(venues.map((v) => [v.venue, v.events?.events.length ?? null])).toEqual([
        ['Annex', null],
        ['Hall 0', 8],
        ['Hall 1', 8],
        ['Hall 2', 8],
      ]);
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0]!.extensions?.code).toBe('NOT_FOUND');
      expect(result.errors![0]!.path).toEqual(['venues', 'venues', 0, 'events']);
    });
  });

  describe('the runtime budget', () => {
    it('stops an operation past REQUEST_MAX_STATEMENTS with 503, and the pool is usable right after', async () => {
      const capped = await appWith(env, { requestMaxStatements: 3 });
      let response!: { status: number; body: any };
      const sent = await env.countQueries(async () => {
        response = await post(capped, deep(5));
      });
      expect(sent).toBeLessThanOrEqual(3);
      expect(response.status).toBe(503);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([
        {
          message:
            'The request needed more than 3 SQL statements and was stopped. Ask for fewer nested lists or smaller pages.',
          extensions: { code: 'STATEMENT_LIMIT_EXCEEDED', limit: 3 },
        },
      ]);
      // The REST adapter's operations are charged the same way: a category's list needs 3
      // (the category, the page with its kept total, the events' organizers and terms).
      const cappedAtTwo = await appWith(env, { requestMaxStatements: 2 });
      const rest = await cappedAtTwo.yoga.fetch(
        `http://localhost/wp-json/calendar/events/v1/events?per_page=5&categories=${ids.categories[0]}`,
      );
      expect(rest.status).toBe(503);
      expect(await rest.json()).toMatchObject({ code: 'rest_service_unavailable' });
      await expectPoolUsable(env);
    });

    it('sends no statement after the deadline, answers 503 REQUEST_TIMEOUT, and the pool is usable right after', async () => {
      const query = `{ a: ${deep(10).slice(1, -1)} b: venues { venues { events { total } } } c: organizers { organizers { events { total } } } }`;
      const full = await env.countQueries(() => env.ok(query));
      expect(full).toBeGreaterThan(8);
      const hurried = await appWith(env, { requestTimeoutMs: 150 });
      // Every statement takes 40 ms (the listener holds the event loop, as a slow synchronous
      // SQLite statement would).
      const slow = (): void => {
        const until = performance.now() + 40;
        while (performance.now() < until);
      };
      env.db.on('query', slow);
      let response!: { status: number; body: any; headers?: Headers };
      let sent: number;
      try {
        sent = await env.countQueries(async () => {
          response = await post(hurried, query);
          // Let whatever the operation still had in flight settle before counting.
          await new Promise((resolve) => setTimeout(resolve, 300));
        });
      } finally {
        env.db.removeListener('query', slow);
      }
      expect(response.status).toBe(503);
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors[0].extensions.code).toBe('REQUEST_TIMEOUT');
      expect(response.body.errors[0].message).toContain('within 150 ms');
      // 150 ms at 40 ms a statement: four or five went out, not all of them.
      expect(sent!).toBeLessThanOrEqual(6);
      expect(sent!).toBeLessThan(full);
      await expectPoolUsable(env);
    });
  });
});

/** Many reads at once (more than the pool holds) all succeed, quickly. */
async function expectPoolUsable(env: TestEnv): Promise<void> {
  const start = performance.now();
  const results = await Promise.all(
    Array.from({ length: 8 }, () => env.gql('{ venues { venues { id events { total } } } }')),
  );
  expect(results.map((r) => r.errors)).toEqual(results.map(() => undefined));
  expect(performance.now() - start).toBeLessThan(1000);
}
