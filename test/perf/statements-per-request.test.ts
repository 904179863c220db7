import { describeEachDb } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';
import { EVENT_COUNT, scenarioPaths, seedPerfDataset, type PerfDataset } from './perf-dataset';

/**
 * SQL statements per request of each benchmark scenario (docs/performance.md "Statements per
 * request"), with the response cache off: deterministic where timings are not. "Warm" is the
 * steady state the benchmark measures (list totals kept per write generation,
 * src/db/list-counts.ts); "cold" the first request after a write, which finds its kept total
 * stale and counts again.
 */

/** [cold, warm] statements per scenario. */
const EXPECTED: Record<string, [number, number]> = {
  // warm: the page's events with their venues and the write generation (one statement, which
  // tells the kept total still holds), then their organizers and terms (one statement for both,
  // src/events/store/links.ts); cold: the generation differs, so the total is counted again
  // (with the generation, one statement) besides
  S1: [3, 2],
  S2: [3, 2],
  // + the category named by the parameter
  S3: [4, 3],
  // the event with its venue, its organizers and its terms, in one statement
  // (src/events/store/event-reads.ts `withLinks`)
  S4: [1, 1],
  S5: [1, 1],
  // the page with the generation; cold, the count besides
  S6: [2, 1],
  S7: [3, 2],
  S8: [3, 2],
  S9: [3, 2],
};

/** Makes the next list request count its total again, as any committed write does. */
async function bumpGeneration(env: { db: import('knex').Knex }): Promise<void> {
  await env
    .db('list_generations')
    .insert({ shard: 99, n: 1 })
    .onConflict('shard')
    .merge({ n: env.db.raw('?? + 1', ['list_generations.n']) });
}

describeEachDb(
  'statements per request, response cache off',
  (env) => {
    const rest = new RestClient(env);
    let data: PerfDataset;

    beforeAll(async () => {
      data = await seedPerfDataset(env);
    }, 60_000);

    it('answers the scenarios from the seeded data', async () => {
      const paths = scenarioPaths(data);
      expect((await rest.get(paths.S1!)).body.total).toBe(EVENT_COUNT);
      expect((await rest.get(paths.S2!)).body.events).toHaveLength(EVENT_COUNT);
      expect((await rest.get(paths.S8!)).body.events).toHaveLength(10);
      expect((await rest.get(paths.S9!)).body.total).toBe(7);
      expect((await rest.get(paths.S7!)).body.total).toBe(5);
      expect((await rest.get(paths.S4!)).body.id).toBe(data.events[3]!.id);
    });

    it.each(Object.entries(EXPECTED))(
      '%s: %j statements (cold, warm)',
      async (scenario, counts) => {
        const path = scenarioPaths(data)[scenario]!;
        await rest.get(path);
        await bumpGeneration(env);
        const seen: number[] = [];
        for (let i = 0; i < 3; i++) {
          seen.push(
            await env.countQueries(async () => {
              expect((await rest.get(path)).status).toBe(200);
            }),
          );
        }
        expect(seen).toEqual([counts[0], counts[1], counts[1]]);
      },
    );
  },
  { RESPONSE_CACHE: 'off' },
);

describeEachDb(
  'statements per request, response cache of this process',
  (env) => {
    const rest = new RestClient(env);
    let data: PerfDataset;

    beforeAll(async () => {
      data = await seedPerfDataset(env);
    }, 60_000);

    it.each(Object.entries(EXPECTED))(
      '%s: a hit sends no statement, a miss what the uncached request sends',
      async (scenario, counts) => {
        const path = scenarioPaths(data)[scenario]!;
        await rest.get(path);
        expect(await env.countQueries(() => rest.get(path))).toBe(0);
        // After a write: a miss, rendered as without the cache, then hits again.
        await bumpGeneration(env);
        let first: Awaited<ReturnType<typeof rest.get>> | undefined;
        const miss = await env.countQueries(async () => {
          first = await rest.get(path);
        });
        expect(miss).toBe(counts[0]);
        let again: Awaited<ReturnType<typeof rest.get>> | undefined;
        const hit = await env.countQueries(async () => {
          again = await rest.get(path);
        });
        expect(hit).toBe(0);
        // The same bytes and headers as the rendered answer.
        expect(again!.status).toBe(200);
        expect(again!.text).toBe(first!.text);
        for (const name of ['etag', 'content-type', 'x-wp-total', 'x-tec-total', 'link', 'allow']) {
          expect(again!.headers.get(name)).toBe(first!.headers.get(name));
        }
        // The HTTP layer still stamps each answer as its own.
        expect(again!.headers.get('x-request-id')).toBeTruthy();
        expect(again!.headers.get('x-request-id')).not.toBe(first!.headers.get('x-request-id'));
        expect(again!.headers.get('x-content-type-options')).toBe('nosniff');
      },
    );

    it('answers If-None-Match with 304 without running the operation', async () => {
      const path = scenarioPaths(data).S2!;
      const first = await rest.get(path);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{11}"$/);
      let conditional: Awaited<ReturnType<typeof rest.get>> | undefined;
      const statements = await env.countQueries(async () => {
        conditional = await rest.get(path, { headers: { 'if-none-match': etag } });
      });
      expect(statements).toBe(0);
      expect(conditional!.status).toBe(304);
      expect(conditional!.text).toBe('');
      expect(conditional!.headers.get('etag')).toBe(etag);
      // HEAD shares the entry, without a body.
      const head = await env.countQueries(async () => {
        const response = await rest.head(path);
        expect(response.status).toBe(200);
        expect(response.text).toBe('');
        expect(response.headers.get('etag')).toBe(etag);
      });
      expect(head).toBe(0);
    });

    it('never answers a caller with credentials from the cache', async () => {
      const path = scenarioPaths(data).S4!;
      await rest.get(path);
      const statements = await env.countQueries(async () => {
        expect((await rest.get(path, { as: 'administrator' })).status).toBe(200);
      });
      expect(statements).toBeGreaterThan(0);
    });
  },
  { RESPONSE_CACHE: 'process' },
);

describeEachDb(
  'statements per request, response cache checked against the database',
  (env) => {
    const rest = new RestClient(env);
    let data: PerfDataset;

    beforeAll(async () => {
      data = await seedPerfDataset(env);
    }, 60_000);

    it('answers a hit with one statement: the write generation', async () => {
      const path = scenarioPaths(data).S1!;
      const first = await rest.get(path);
      let again!: Awaited<ReturnType<typeof rest.get>>;
      const sql = await env.statementsOf(async () => {
        again = await rest.get(path);
      });
      expect(again.text).toBe(first.text);
      expect(sql).toHaveLength(1);
      expect(sql[0]).toMatch(/list_generations/);
    });
  },
  { RESPONSE_CACHE: 'on' },
);
