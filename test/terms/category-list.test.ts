import { describeEachDb } from '../support/harness';
import { addEvent, addTerm, eventWith, LIST_ENVELOPE } from '../support/term-fixtures';

const BASE = 'http://calendar.test/wp-json/calendar/events/v1/categories/';

const LIST = `query ($page: Int, $per_page: Int, $search: String, $exclude: [Int!], $include: [Int!],
  $order: SortOrder, $orderby: TermOrderBy, $hide_empty: Boolean, $post: Int, $event: Int,
  $slug: String, $parent: Int) {
  categories(page: $page, per_page: $per_page, search: $search, exclude: $exclude,
    include: $include, order: $order, orderby: $orderby, hide_empty: $hide_empty, post: $post,
    event: $event, slug: $slug, parent: $parent) {
    ${LIST_ENVELOPE} categories { id name }
  }
}`;

describeEachDb('categories list', (env) => {
  // A tree and events whose counts exercise hide_empty (E is only used by a draft).
  const t: Record<'A' | 'B' | 'C' | 'D' | 'E' | 'tag', number> = {} as never;
  const ev: Record<'one' | 'two' | 'bare', number> = {} as never;

  beforeAll(async () => {
    const db = env.db;
    t.A = await addTerm(db, 'category', { name: 'Alpha', slug: 'alpha', description: 'zeta' });
    t.B = await addTerm(db, 'category', {
      name: 'beta foo',
      slug: 'beta-foo',
      description: 'Delta',
    });
    t.C = await addTerm(db, 'category', {
      name: 'Gamma',
      slug: 'foo-gamma',
      description: 'alpha',
      parent_id: t.A,
    });
    t.D = await addTerm(db, 'category', { name: 'delta', slug: 'delta', parent_id: t.A });
    t.E = await addTerm(db, 'category', { name: 'Epsilon', slug: 'epsilon', description: 'beta' });
    t.tag = await addTerm(db, 'tag', { name: 'Alpha tag', slug: 'alpha' });
    ev.one = await eventWith(db, [t.A, t.B, t.C, t.tag]);
    ev.two = await eventWith(db, [t.A, t.D]);
    await eventWith(db, [t.E], 'draft');
    await eventWith(db, [t.B]);
    ev.bare = await addEvent(db);
  });

  const list = async (vars: Record<string, unknown>) => (await env.ok(LIST, vars)).categories;
  const ids = async (vars: Record<string, unknown>) =>
    (await list(vars)).categories.map((c: { id: number }) => c.id);
  const fails = async (vars: Record<string, unknown>) => {
    const result = await env.gql(LIST, vars);
    expect(result.errors).toHaveLength(1);
    return result.errors![0]!.extensions!;
  };
  const invalidParam = async (vars: Record<string, unknown>, param: string) => {
    const ext = await fails(vars);
    expect(ext.code).toBe('BAD_USER_INPUT');
    expect(ext.rest_code).toBe('rest_invalid_param');
    expect(Object.keys(ext.params)).toEqual([param]);
  };

  it('hides unused categories by default and orders by name, case-insensitively', async () => {
    const page = await list({});
    expect(page.categories.map((c: { name: string }) => c.name)).toEqual([
      'Alpha',
      'beta foo',
      'delta',
      'Gamma',
    ]);
    expect(page).toMatchObject({ total: 4, total_pages: 1, next_rest_url: null });
    expect(page.rest_url).toBe(`${BASE}?page=1&per_page=10`);
  });

  it('shows unused categories with hide_empty=false and echoes hide_empty when sent', async () => {
    const page = await list({ hide_empty: false });
    expect(page.total).toBe(5);
    expect(page.categories.map((c: { id: number }) => c.id)).toEqual([t.A, t.B, t.D, t.E, t.C]);
    expect(page.rest_url).toBe(`${BASE}?page=1&per_page=10&hide_empty=false`);
    expect((await list({ hide_empty: true })).rest_url).toBe(
      `${BASE}?page=1&per_page=10&hide_empty=true`,
    );
    const literal = await env.ok('{ categories(hide_empty: false) { rest_url total } }');
    expect(literal.categories).toEqual({ rest_url: page.rest_url, total: 5 });
  });

  it('searches names and slugs, case-insensitively, with LIKE wildcards taken literally', async () => {
    expect(await ids({ search: 'foo' })).toEqual([t.B, t.C]);
    expect(await ids({ search: 'FOO' })).toEqual([t.B, t.C]);
    expect(await ids({ search: 'ph' })).toEqual([t.A]);
    expect(await list({ search: 'zoot' })).toMatchObject({ total: 0, total_pages: 0 });
    expect(await list({ search: '%' })).toMatchObject({ total: 0 });
    expect(await list({ search: '_' })).toMatchObject({ total: 0 });
    expect((await list({ search: 'foo' })).rest_url).toBe(`${BASE}?page=1&per_page=10&search=foo`);
    await invalidParam({ search: '' }, 'search');
  });

  it('excludes and includes ids, rejecting ids that are not categories', async () => {
    expect(await list({ hide_empty: false, exclude: [t.A] })).toMatchObject({ total: 4 });
    expect(await ids({ hide_empty: false, exclude: [t.A, t.B] })).toEqual([t.D, t.E, t.C]);
    expect(await ids({ hide_empty: false, include: [t.E] })).toEqual([t.E]);
    expect(await ids({ include: [t.A, t.C, t.E] })).toEqual([t.A, t.C]);
    expect(await ids({ include: [t.A, t.B], exclude: [t.B] })).toEqual([t.A]);
    await invalidParam({ exclude: [t.A, 999999] }, 'exclude');
    await invalidParam({ include: [999999] }, 'include');
    await invalidParam({ include: [t.tag] }, 'include');
    const ext = await fails({ include: [999999], exclude: [999998] });
    expect(Object.keys(ext.params).sort()).toEqual(['exclude', 'include']);
    expect(ext.params.include).toMatch(/999999/);
  });

  it('orders by every attribute, both ways, ties broken by id', async () => {
    const all = { hide_empty: false };
    expect(await ids({ ...all, orderby: 'id' })).toEqual([t.A, t.B, t.C, t.D, t.E]);
    expect(await ids({ ...all, orderby: 'id', order: 'desc' })).toEqual([t.E, t.D, t.C, t.B, t.A]);
    expect(await ids({ ...all, order: 'desc' })).toEqual([t.C, t.E, t.D, t.B, t.A]);
    expect(await ids({ ...all, orderby: 'name', order: 'asc' })).toEqual([t.A, t.B, t.D, t.E, t.C]);
    expect(await ids({ ...all, orderby: 'slug' })).toEqual([t.A, t.B, t.D, t.E, t.C]);
    expect(await ids({ ...all, orderby: 'description' })).toEqual([t.D, t.C, t.E, t.B, t.A]);
    expect(await ids({ ...all, orderby: 'count' })).toEqual([t.E, t.C, t.D, t.A, t.B]);
    expect(await ids({ ...all, orderby: 'count', order: 'desc' })).toEqual([
      t.B,
      t.A,
      t.D,
      t.C,
      t.E,
    ]);
    const unknown = await env.gql('{ categories(orderby: weight) { total } }');
    expect(unknown.errors?.[0]?.message).toMatch(/weight/);
  });

  it('lists the categories of an event; event wins over post', async () => {
    expect(await ids({ post: ev.one })).toEqual([t.A, t.B, t.C]);
    expect(await ids({ event: ev.two })).toEqual([t.A, t.D]);
    const both = await list({ post: ev.one, event: ev.two });
    expect(both.categories.map((c: { id: number }) => c.id)).toEqual([t.A, t.D]);
    expect(both.rest_url).toBe(`${BASE}?page=1&per_page=10&event=${ev.two}`);
    expect((await list({ post: ev.one })).rest_url).toBe(
      `${BASE}?page=1&per_page=10&post=${ev.one}`,
    );
    expect(await list({ event: ev.bare })).toMatchObject({ total: 0, categories: [] });
    await invalidParam({ post: 999999 }, 'post');
    await invalidParam({ event: 0 }, 'event');
    await invalidParam({ post: ev.one, event: 999999 }, 'event');
  });

  it('filters by exact slug', async () => {
    expect(await ids({ slug: 'delta' })).toEqual([t.D]);
    expect(await ids({ slug: 'foo' })).toEqual([]);
    expect(await list({ slug: 'nope' })).toMatchObject({ total: 0, total_pages: 0 });
    await invalidParam({ slug: '' }, 'slug');
  });

  it('lists direct children of a parent, or the top level for 0', async () => {
    expect(await ids({ parent: t.A })).toEqual([t.D, t.C]);
    expect(await ids({ parent: t.C })).toEqual([]);
    expect(await ids({ parent: 0, hide_empty: false })).toEqual([t.A, t.B, t.E]);
    expect((await list({ parent: t.A })).rest_url).toBe(`${BASE}?page=1&per_page=10&parent=${t.A}`);
    await invalidParam({ parent: 999999 }, 'parent');
    await invalidParam({ parent: t.tag }, 'parent');
    await invalidParam({ parent: -1 }, 'parent');
  });

  it('pages with links that keep the filters, and 404s past the last page', async () => {
    const vars = { per_page: 2, hide_empty: false, orderby: 'id' };
    const p1 = await list(vars);
    expect(p1).toMatchObject({ total: 5, total_pages: 3, previous_rest_url: null });
    expect(p1.categories.map((c: { id: number }) => c.id)).toEqual([t.A, t.B]);
    expect(p1.rest_url).toBe(`${BASE}?page=1&per_page=2&orderby=id&hide_empty=false`);
    expect(p1.next_rest_url).toBe(`${BASE}?page=2&per_page=2&orderby=id&hide_empty=false`);
    const p2 = await list({ ...vars, page: 2 });
    expect(p2.categories.map((c: { id: number }) => c.id)).toEqual([t.C, t.D]);
    expect(p2.previous_rest_url).toBe(`${BASE}?per_page=2&orderby=id&hide_empty=false`);
    expect(p2.next_rest_url).toBe(`${BASE}?page=3&per_page=2&orderby=id&hide_empty=false`);
    const p3 = await list({ ...vars, page: 3 });
    expect(p3.categories.map((c: { id: number }) => c.id)).toEqual([t.E]);
    expect(p3).toMatchObject({ next_rest_url: null });
    expect(p3.previous_rest_url).toBe(`${BASE}?page=2&per_page=2&orderby=id&hide_empty=false`);
    const past = await fails({ ...vars, page: 4 });
    expect(past).toMatchObject({ code: 'NOT_FOUND', rest_code: 'category-archive-page-not-found' });
    expect(await list({ search: 'zoot', page: 1 })).toMatchObject({ total: 0 });
    await invalidParam({ per_page: 0 }, 'per_page');
  });

  it('echoes every filter, in the contract order', async () => {
    const page = await list({
      parent: t.A,
      slug: 'delta',
      event: ev.two,
      hide_empty: false,
      orderby: 'slug',
      order: 'desc',
      include: [t.D, t.C],
      exclude: [t.B],
      search: 'del',
      per_page: 5,
    });
    expect(page.categories.map((c: { id: number }) => c.id)).toEqual([t.D]);
    expect(page.rest_url).toBe(
      `${BASE}?page=1&per_page=5&search=del&exclude=${t.B}&include=${t.D},${t.C}` +
        `&order=desc&orderby=slug&hide_empty=false&event=${ev.two}&slug=delta&parent=${t.A}`,
    );
  });

  it('costs the same number of queries whatever the page size', async () => {
    const fields = '{ total categories { id name slug count url urls { self up } parent } }';
    const small = await env.countQueries(() =>
      env.ok(`{ categories(per_page: 1, hide_empty: false) ${fields} }`),
    );
    const large = await env.countQueries(() =>
      env.ok(`{ categories(per_page: 50, hide_empty: false) ${fields} }`),
    );
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(6);
  });
});
