import { bumpListGeneration } from '../../../src/db/list-counts';
import { insertEvent, resetCalendar } from '../../support/event-fixtures';
import { describeEachDb, type TestEnv } from '../../support/harness';

/**
 * `events_connection` (issue 20, items 1 and 2): keyset cursors walk the events list's filter
 * forwards and backwards, in the default order and in `order_by`, visiting each event present
 * throughout exactly once whatever is inserted or deleted between pages.
 */

const PAGE = `
  query ($first: Int, $after: String, $last: Int, $before: String, $order: [EventOrder!]) {
    events_connection(first: $first, after: $after, last: $last, before: $before, order_by: $order) {
      total_count
      edges { cursor node { id title start_date } }
      page_info { has_next_page has_previous_page start_cursor end_cursor }
    }
  }`;

interface Node {
  id: number;
  title: string;
  start_date: string;
}

interface Page {
  total_count: number;
  edges: { cursor: string; node: Node }[];
  page_info: {
    has_next_page: boolean;
    has_previous_page: boolean;
    start_cursor: string | null;
    end_cursor: string | null;
  };
}

/** Mixed case, repeated words: TITLE order needs case folding and the id tie-break. */
const WORDS = ['alpha', 'Bravo', 'charlie', 'Delta', 'echo', 'Foxtrot', 'golf', 'Hotel'];
const day = (n: number): string =>
  `2027-01-${String(1 + (n % 28)).padStart(2, '0')} ${String(10 + (n % 3)).padStart(2, '0')}:00:00`;

async function seed(env: TestEnv): Promise<number[]> {
  await resetCalendar(env);
  const ids: number[] = [];
  for (let i = 0; i < 40; i++) {
    // Some starts and some titles repeat: the id decides between them.
    const title = `${WORDS[i % WORDS.length]}${i % 5 === 0 ? '' : ` ${i % 4}`}`;
    ids.push(await insertEvent(env, { title, start: day(i % 17) }));
  }
  await insertEvent(env, { title: 'alpha draft', start: day(3), status: 'draft' });
  await env.db.transaction((trx) => bumpListGeneration(trx));
  return ids;
}

async function page(env: TestEnv, variables: Record<string, unknown>): Promise<Page> {
  const data = await env.ok<{ events_connection: Page }>(PAGE, variables);
  return data.events_connection;
}

/** The order the database should give: what the SDL promises, computed here. */
function titleKey(title: string): Buffer {
  return Buffer.from(title.toLowerCase());
}
function byStart(a: Node, b: Node): number {
  return a.start_date.localeCompare(b.start_date) || a.id - b.id;
}
function byTitleDesc(a: Node, b: Node): number {
  return Buffer.compare(titleKey(b.title), titleKey(a.title)) || b.id - a.id;
}

async function all(env: TestEnv): Promise<Node[]> {
  const rows = await env
    .db('events')
    .where({ status: 'publish' })
    .select('id', 'title', 'start_date');
  return rows.map((r: Node) => ({ id: Number(r.id), title: r.title, start_date: r.start_date }));
}

/** Walks forwards, running `between(pageNumber, page)` after each page. */
async function walk(
  env: TestEnv,
  order: unknown,
  between: (n: number, p: Page) => Promise<void> = async () => {},
): Promise<{ nodes: Node[]; pages: Page[] }> {
  const nodes: Node[] = [];
  const pages: Page[] = [];
  let after: string | null = null;
  for (let n = 0; n < 50; n++) {
    const p = await page(env, { first: 5, after, order });
    pages.push(p);
    nodes.push(...p.edges.map((e) => e.node));
    await between(n, p);
    if (!p.page_info.has_next_page) return { nodes, pages };
    after = p.page_info.end_cursor;
  }
  throw new Error('the walk did not end');
}

/** A cursor of the default order carrying `key`. */
const forged = (key: unknown[]): string =>
  Buffer.from(JSON.stringify({ o: 'event:START.ASC,ID.ASC', k: key })).toString('base64url');

describeEachDb('events_connection', (env) => {
  let ids: number[] = [];
  beforeEach(async () => {
    ids = await seed(env);
  });

  it('walks each published event once, forwards, in list order; the draft stays hidden', async () => {
    const { nodes, pages } = await walk(env, null);
    expect(nodes.map((n) => n.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(pages).toHaveLength(8);
    expect(pages.map((p) => p.edges.length)).toEqual([5, 5, 5, 5, 5, 5, 5, 5]);
    expect(pages.every((p) => p.total_count === 40)).toBe(true);
    expect(nodes).toEqual([...nodes].sort(byStart));
    expect(pages[0]!.page_info.has_previous_page).toBe(false);
    expect(pages[1]!.page_info.has_previous_page).toBe(true);
    expect(pages[7]!.page_info.has_next_page).toBe(false);
    // The list agrees: same filter, same visibility, same order.
    const list = await env.ok<{ events: { events: { id: number }[] } }>(
      '{ events(per_page: 50) { events { id } } }',
    );
    expect(nodes.map((n) => n.id)).toEqual(list.events.events.map((e) => e.id));
  });

  it('ends with a short page when the total is not a multiple of the page size', async () => {
    const first = await page(env, { first: 7 });
    expect(first.edges).toHaveLength(7);
    let after = first.page_info.end_cursor;
    const sizes = [7];
    for (;;) {
      const p = await page(env, { first: 7, after });
      sizes.push(p.edges.length);
      if (!p.page_info.has_next_page) break;
      after = p.page_info.end_cursor;
    }
    expect(sizes).toEqual([7, 7, 7, 7, 7, 5]);
  });

  it('walks backwards with last/before to the same events in the same order', async () => {
    const forwards = (await walk(env, null)).nodes.map((n) => n.id);
    const backwards: number[][] = [];
    let before: string | null = null;
    for (;;) {
      const p = await page(env, { last: 5, before });
      backwards.unshift(p.edges.map((e) => e.node.id));
      if (!p.page_info.has_previous_page) break;
      before = p.page_info.start_cursor;
    }
    expect(backwards.flat()).toEqual(forwards);
    expect(backwards.every((p) => p.length === 5)).toBe(true);
  });

  for (const [name, order, compare] of [
    ['the default order', null, byStart],
    ['TITLE DESC', [{ field: 'TITLE', direction: 'DESC' }], byTitleDesc],
  ] as const) {
    it(`neither repeats nor skips while 5 events are inserted and 3 deleted (${name})`, async () => {
      const seen = new Set<number>();
      const deleted: number[] = [];
      const inserted: number[] = [];
      const { nodes } = await walk(env, order, async (n, p) => {
        for (const e of p.edges) seen.add(e.node.id);
        if (n === 1) {
          // Around and at the walk's position: before it, after it, equal keys.
          for (const [i, title] of ['alpha', 'zulu', 'Bravo 1', 'echo', 'AAA'].entries()) {
            inserted.push(await insertEvent(env, { title, start: day(i * 4) }));
          }
        }
        if (n === 3) {
          // The cursor's own row, one already seen and one not yet seen.
          const cursorRow = p.edges[p.edges.length - 1]!.node.id;
          const seenRow = [...seen].find((id) => id !== cursorRow && ids.includes(id))!;
          const unseen = ids.find((id) => !seen.has(id))!;
          for (const id of [cursorRow, seenRow, unseen]) {
            await env.db('events').where({ id }).delete();
            deleted.push(id);
          }
        }
      });
      expect(deleted).toHaveLength(3);
      expect(inserted).toHaveLength(5);
      const walked = nodes.map((n) => n.id);
      expect(new Set(walked).size).toBe(walked.length);
      const throughout = ids.filter((id) => !deleted.includes(id));
      expect(walked.filter((id) => throughout.includes(id)).sort((a, b) => a - b)).toEqual(
        throughout.sort((a, b) => a - b),
      );
      // Every page continued in order: the walk is the order of what it met.
      expect(nodes).toEqual([...nodes].sort(compare));
    });
  }

  it('sorts by order_by, the id breaking ties, the same on every database', async () => {
    const expected = (await all(env)).sort(byTitleDesc).map((n) => n.id);
    const { nodes } = await walk(env, [{ field: 'TITLE', direction: 'DESC' }]);
    expect(nodes.map((n) => n.id)).toEqual(expected);
    const byId = await walk(env, [{ field: 'ID', direction: 'DESC' }]);
    expect(byId.nodes.map((n) => n.id)).toEqual([...ids].sort((a, b) => b - a));
    const byEnd = await page(env, { first: 40, order: [{ field: 'END' }, { field: 'TITLE' }] });
    expect(byEnd.edges).toHaveLength(40);
  });

  it('refuses invalid cursors, cursors of another order and bad sizes with BAD_USER_INPUT', async () => {
    const first = await page(env, { first: 5 });
    const cursor = first.page_info.end_cursor!;
    const titled = await page(env, { first: 5, order: [{ field: 'TITLE' }] });
    const refusals: Record<string, unknown>[] = [
      { first: 5, after: 'not-a-cursor!' },
      { first: 5, after: Buffer.from('{"o":1}').toString('base64url') },
      { first: 5, after: cursor.slice(0, -3) },
      // The right order, values of the wrong types: text where a date goes, text for the id.
      { first: 5, after: forged(['2027-01-01 10:00:00', '7']) },
      { first: 5, after: forged([20270101, 7]) },
      { first: 5, after: titled.page_info.end_cursor, order: null },
      { first: 5, after: cursor, order: [{ field: 'TITLE' }] },
      { first: 51 },
      { first: -1 },
      { first: 5, last: 5 },
      { last: 5, after: cursor },
      { first: 5, order: [{ field: 'TITLE' }, { field: 'TITLE' }] },
    ];
    for (const variables of refusals) {
      const result = await env.gql(PAGE, variables);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(result.data).toBeNull();
    }
  });

  it('applies the list filters and their visibility', async () => {
    const admin = await env.ok<{ events_connection: Page }>(
      '{ events_connection(first: 50, status: [draft]) { total_count edges { node { title } } } }',
      {},
      { as: 'administrator' },
    );
    expect(admin.events_connection.total_count).toBe(1);
    expect(admin.events_connection.edges[0]!.node.title).toBe('alpha draft');
    const anonymous = await env.gql('{ events_connection(status: [draft]) { total_count } }');
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const searched = await env.ok<{ events_connection: Page }>(
      '{ events_connection(search: "golf", first: 50) { total_count edges { node { title } } } }',
    );
    expect(searched.events_connection.total_count).toBe(5);
    expect(searched.events_connection.edges.every((e) => e.node.title.startsWith('golf'))).toBe(
      true,
    );
  });

  it('counts only when total_count is asked', async () => {
    const without = await env.countQueries(() =>
      env.ok('{ events_connection(first: 5) { edges { node { id } } } }'),
    );
    await env.db.transaction((trx) => bumpListGeneration(trx));
    const withTotal = await env.countQueries(() =>
      env.ok('{ events_connection(first: 5) { total_count edges { node { id } } } }'),
    );
    expect(withTotal).toBeGreaterThan(without);
  });
});
