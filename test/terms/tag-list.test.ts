import { describeEachDb } from '../support/harness';
import { addEvent, addTerm, eventWith, LIST_ENVELOPE, TAG_FIELDS } from '../support/term-fixtures';

const NS = 'http://calendar.test/wp-json/calendar/events/v1';
const BASE = `${NS}/tags/`;

const LIST = `query ($page: Int, $per_page: Int, $search: String, $exclude: [Int!], $include: [Int!],
  $order: SortOrder, $orderby: TermOrderBy, $hide_empty: Boolean, $post: Int, $event: Int,
  $slug: String) {
  tags(page: $page, per_page: $per_page, search: $search, exclude: $exclude, include: $include,
    order: $order, orderby: $orderby, hide_empty: $hide_empty, post: $post, event: $event,
    slug: $slug) {
    ${LIST_ENVELOPE} tags { ${TAG_FIELDS} }
  }
}`;

describeEachDb('tags list', (env) => {
  const t: Record<'jazz' | 'outdoor' | 'rock' | 'unused' | 'cat', number> = {} as never;
  const ev: Record<'one' | 'two' | 'bare', number> = {} as never;

  beforeAll(async () => {
    const db = env.db;
    t.jazz = await addTerm(db, 'tag', { name: 'Jazz', slug: 'jazz', description: 'Jazz tag' });
    t.outdoor = await addTerm(db, 'tag', { name: 'outdoor', slug: 'outdoor' });
    t.rock = await addTerm(db, 'tag', { name: 'Rock', slug: 'rock-music' });
    t.unused = await addTerm(db, 'tag', { name: 'Unused', slug: 'unused' });
    t.cat = await addTerm(db, 'category', { name: 'Jazz', slug: 'jazz' });
    ev.one = await eventWith(db, [t.cat, t.jazz, t.outdoor]);
    ev.two = await eventWith(db, [t.rock]);
    await eventWith(db, [t.jazz]);
    await eventWith(db, [t.unused], 'pending');
    ev.bare = await addEvent(db);
  });

  const list = async (vars: Record<string, unknown>) => (await env.ok(LIST, vars)).tags;
  const ids = async (vars: Record<string, unknown>) =>
    (await list(vars)).tags.map((c: { id: number }) => c.id);
  const fails = async (vars: Record<string, unknown>) => {
    const result = await env.gql(LIST, vars);
    expect(result.errors).toHaveLength(1);
    return result.errors![0]!.extensions!;
  };
  const invalidParam = async (vars: Record<string, unknown>, param: string) => {
    const ext = await fails(vars);
    expect(ext).toMatchObject({ code: 'BAD_USER_INPUT', rest_code: 'rest_invalid_param' });
    expect(Object.keys(ext.params)).toEqual([param]);
  };

  it('answers tag objects like the reference sample', async () => {
    const page = await list({});
    expect(page).toMatchObject({ rest_url: `${BASE}?page=1&per_page=10`, total: 3 });
    expect(page.tags[0]).toEqual({
      id: t.jazz,
      count: 2,
      description: 'Jazz tag',
      name: 'Jazz',
      slug: 'jazz',
      taxonomy: 'post_tag',
      meta: [],
      url: 'http://calendar.test/tag/jazz/',
      urls: { self: `${NS}/tags/${t.jazz}`, collection: `${NS}/tags`, up: null },
      term_group: 0,
      term_taxonomy_id: t.jazz,
      filter: 'raw',
    });
    expect(page.tags.map((x: { name: string }) => x.name)).toEqual(['Jazz', 'outdoor', 'Rock']);
  });

  it('hides tags no published event uses unless hide_empty=false', async () => {
    expect(await ids({})).not.toContain(t.unused);
    expect(await ids({ hide_empty: false })).toEqual([t.jazz, t.outdoor, t.rock, t.unused]);
  });

  it('searches, includes and excludes within tags only', async () => {
    expect(await ids({ search: 'MUSIC' })).toEqual([t.rock]);
    expect(await ids({ search: 'o', hide_empty: false })).toEqual([t.outdoor, t.rock]);
    await invalidParam({ search: '' }, 'search');
    expect(await ids({ exclude: [t.jazz] })).toEqual([t.outdoor, t.rock]);
    expect(await ids({ include: [t.rock, t.jazz] })).toEqual([t.jazz, t.rock]);
    await invalidParam({ include: [t.cat] }, 'include');
    await invalidParam({ exclude: [999999] }, 'exclude');
  });

  it('orders by id and count in both directions', async () => {
    expect(await ids({ orderby: 'id', order: 'desc' })).toEqual([t.rock, t.outdoor, t.jazz]);
    expect(await ids({ orderby: 'count', order: 'desc' })).toEqual([t.jazz, t.rock, t.outdoor]);
    expect(await ids({ orderby: 'slug' })).toEqual([t.jazz, t.outdoor, t.rock]);
  });

  it('lists the tags of an event (event wins over post) and filters by slug', async () => {
    expect(await ids({ post: ev.one })).toEqual([t.jazz, t.outdoor]);
    expect(await ids({ post: ev.one, event: ev.two })).toEqual([t.rock]);
    expect(await ids({ event: ev.bare })).toEqual([]);
    await invalidParam({ post: 999999 }, 'post');
    expect(await ids({ slug: 'jazz' })).toEqual([t.jazz]);
    expect(await list({ slug: 'nope' })).toMatchObject({ total: 0, total_pages: 0, tags: [] });
    await invalidParam({ slug: '' }, 'slug');
  });

  it('has no parent argument', async () => {
    const result = await env.gql('{ tags(parent: 0) { total } }');
    expect(result.errors?.[0]?.message).toMatch(/parent/);
  });

  it('pages with links and 404s past the last page with the tag code', async () => {
    const p2 = await list({ per_page: 1, page: 2, search: 'o' });
    expect(p2).toMatchObject({ total: 2, total_pages: 2, next_rest_url: null });
    expect(p2.tags.map((x: { id: number }) => x.id)).toEqual([t.rock]);
    expect(p2.rest_url).toBe(`${BASE}?page=2&per_page=1&search=o`);
    expect(p2.previous_rest_url).toBe(`${BASE}?per_page=1&search=o`);
    const p1 = await list({ per_page: 1, search: 'o' });
    expect(p1.next_rest_url).toBe(`${BASE}?page=2&per_page=1&search=o`);
    const past = await fails({ per_page: 1, page: 3, search: 'o' });
    expect(past).toMatchObject({ code: 'NOT_FOUND', rest_code: 'tag-archive-page-not-found' });
  });
});
