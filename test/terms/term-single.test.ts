import { describeEachDb } from '../support/harness';
import { addTerm, CATEGORY_FIELDS, eventWith, TAG_FIELDS } from '../support/term-fixtures';

const NS = 'http://calendar.test/wp-json/calendar/events/v1';

describeEachDb('single category and tag', (env) => {
  const t: Record<'music' | 'jazz' | 'bebop' | 'blues' | 'tag', number> = {} as never;
  const ev: Record<'first' | 'second', number> = {} as never;

  beforeAll(async () => {
    const db = env.db;
    t.music = await addTerm(db, 'category', { name: 'Music', slug: 'music' });
    t.jazz = await addTerm(db, 'category', {
      name: 'Jazz',
      slug: 'jazz',
      description: 'Live jazz',
      parent_id: t.music,
    });
    t.bebop = await addTerm(db, 'category', { name: 'bebop', slug: 'bebop', parent_id: t.jazz });
    t.blues = await addTerm(db, 'category', { name: 'Blues', slug: 'blues', parent_id: t.music });
    t.tag = await addTerm(db, 'tag', { name: 'Jazz', slug: 'jazz', description: 'Jazz tag' });
    ev.first = await eventWith(db, [t.jazz, t.tag]);
    ev.second = await eventWith(db, [t.jazz]);
    await eventWith(db, [t.jazz, t.tag], 'draft');
  });

  const category = (id: number) =>
    env.gql(`query ($id: Int!) { category(id: $id) { ${CATEGORY_FIELDS} } }`, { id });
  const tag = (id: number) =>
    env.gql(`query ($id: Int!) { tag(id: $id) { ${TAG_FIELDS} } }`, { id });

  it('reads a child category with its parent link and nested archive url', async () => {
    const { data } = await category(t.jazz);
    expect(data!.category).toEqual({
      id: t.jazz,
      count: 2,
      description: 'Live jazz',
      name: 'Jazz',
      slug: 'jazz',
      taxonomy: 'tribe_events_cat',
      parent: t.music,
      meta: [],
      url: 'http://calendar.test/events/category/music/jazz/',
      urls: {
        self: `${NS}/categories/${t.jazz}`,
        collection: `${NS}/categories`,
        up: `${NS}/categories/${t.music}`,
      },
      term_group: 0,
      term_taxonomy_id: t.jazz,
      filter: 'raw',
    });
  });

  it('nests every ancestor slug in a grandchild url; a top-level category has no up', async () => {
    expect((await category(t.bebop)).data!.category.url).toBe(
      'http://calendar.test/events/category/music/jazz/bebop/',
    );
    const top = (await category(t.music)).data!.category;
    expect(top).toMatchObject({
      parent: 0,
      count: 0,
      url: 'http://calendar.test/events/category/music/',
    });
    expect(top.urls.up).toBeNull();
  });

  it('resolves parent_category and children by name', async () => {
    const data = await env.ok(
      `query ($id: Int!) { category(id: $id) {
        parent_category { id name parent_category { id } }
        children { id name children { id } }
      } }`,
      { id: t.jazz },
    );
    expect(data.category.parent_category).toEqual({
      id: t.music,
      name: 'Music',
      parent_category: null,
    });
    expect(data.category.children).toEqual([{ id: t.bebop, name: 'bebop', children: [] }]);
    const music = await env.ok(`{ category(id: ${t.music}) { children { id } } }`);
    expect(music.category.children).toEqual([{ id: t.blues }, { id: t.jazz }]);
  });

  it('loads children for a whole page in one query', async () => {
    const query = '{ categories(hide_empty: false) { categories { id children { id } } } }';
    const queries = await env.countQueries(() => env.ok(query));
    expect(queries).toBe(3);
  });

  it('reads a tag: no parent, no up', async () => {
    const { data } = await tag(t.tag);
    expect(data!.tag).toEqual({
      id: t.tag,
      count: 1,
      description: 'Jazz tag',
      name: 'Jazz',
      slug: 'jazz',
      taxonomy: 'post_tag',
      meta: [],
      url: 'http://calendar.test/tag/jazz/',
      urls: { self: `${NS}/tags/${t.tag}`, collection: `${NS}/tags`, up: null },
      term_group: 0,
      term_taxonomy_id: t.tag,
      filter: 'raw',
    });
  });

  it('lists the published events of a category or tag, paged', async () => {
    const data = await env.ok(
      `{ category(id: ${t.jazz}) { events(per_page: 1) { total events { id } } }
         tag(id: ${t.tag}) { events { total events { id } } } }`,
    );
    expect(data.category.events).toEqual({ total: 2, events: [{ id: ev.first }] });
    expect(data.tag.events).toEqual({ total: 1, events: [{ id: ev.first }] });
    const page2 = await env.ok(
      `{ category(id: ${t.jazz}) { events(page: 2, per_page: 1) { events { id } } } }`,
    );
    expect(page2.category.events.events).toEqual([{ id: ev.second }]);
  });

  it('answers 404 for unknown ids and ids of the other taxonomy', async () => {
    for (const [result, resource, id] of [
      [await category(999999), 'category', 999999],
      [await category(t.tag), 'category', t.tag],
      [await tag(t.jazz), 'tag', t.jazz],
      [await tag(0), 'tag', 0],
    ] as const) {
      // Lookups are soft (issue 20): the term is null, with the error at its path.
      expect(result.data).toEqual({ [resource]: null });
      expect(result.errors?.[0]?.path).toEqual([resource]);
      expect(result.errors?.[0]?.extensions).toMatchObject({
        code: 'NOT_FOUND',
        rest_code: `rest-${resource}-not-found`,
      });
      expect(result.errors?.[0]?.message).toContain(`ID ${id}`);
    }
  });
});
