import { describeEachDb, type Caller } from '../support/harness';
import { addTerm, CATEGORY_FIELDS, eventWith } from '../support/term-fixtures';

const NS = 'http://calendar.test/wp-json/calendar/events/v1';

const CREATE = `mutation ($input: CategoryInput!) { create_category(input: $input) { ${CATEGORY_FIELDS} } }`;
const UPDATE = `mutation ($id: Int!, $input: CategoryInput!) {
  update_category(id: $id, input: $input) { ${CATEGORY_FIELDS} } }`;
const DELETE = `mutation ($id: Int!) { delete_category(id: $id) { ${CATEGORY_FIELDS} } }`;

describeEachDb('category writes', (env) => {
  const create = (input: Record<string, unknown>, as: Caller = 'administrator') =>
    env.ok(CREATE, { input }, { as }).then((d) => d.create_category);
  const update = (id: number, input: Record<string, unknown>, as: Caller = 'administrator') =>
    env.ok(UPDATE, { id, input }, { as }).then((d) => d.update_category);

  /** Runs a write that must fail, proves it changed nothing, and returns its error extensions. */
  const rejected = async (
    query: string,
    vars: Record<string, unknown>,
    as: Caller = 'administrator',
  ) => {
    await env.authHeaders(as);
    const before = await env.snapshot();
    const result = await env.gql(query, vars, { as });
    expect(result.errors).toHaveLength(1);
    expect(await env.snapshot()).toBe(before);
    return result.errors![0]!.extensions!;
  };
  const invalidInput = async (input: Record<string, unknown>, param: string, id?: number) => {
    const ext = await rejected(id ? UPDATE : CREATE, id ? { id, input } : { input });
    expect(ext).toMatchObject({ code: 'BAD_USER_INPUT', rest_code: 'rest_invalid_param' });
    expect(Object.keys(ext.params)).toEqual([param]);
  };

  it('creates a minimal category with a generated slug and count 0', async () => {
    const made = await create({ name: '  Concerts ' });
    expect(made).toMatchObject({
      name: 'Concerts',
      slug: 'concerts',
      description: '',
      count: 0,
      parent: 0,
      taxonomy: 'tribe_events_cat',
      url: 'http://calendar.test/events/category/concerts/',
      urls: { self: `${NS}/categories/${made.id}`, collection: `${NS}/categories`, up: null },
    });
    const read = await env.ok(`{ category(id: ${made.id}) { ${CATEGORY_FIELDS} } }`);
    expect(read.category).toEqual(made);
  });

  it('creates a child with every field, and suffixes a taken slug', async () => {
    const parent = await create({ name: 'Festivals' });
    const made = await create({
      name: 'Summer',
      description: 'Open <b>air</b><script>x()</script>',
      slug: 'Festivals',
      parent: parent.id,
    });
    expect(made).toMatchObject({
      name: 'Summer',
      slug: 'festivals-2',
      description: 'Open <b>air</b>',
      parent: parent.id,
      url: 'http://calendar.test/events/category/festivals/festivals-2/',
      urls: { up: `${NS}/categories/${parent.id}` },
    });
    expect((await create({ name: 'Festivals!', parent: parent.id })).slug).toBe('festivals-3');
    expect((await create({ name: 'Top', parent: 0 })).parent).toBe(0);
  });

  it('rejects a duplicate name under the same parent only, case-insensitively', async () => {
    const root = await create({ name: 'Theatre' });
    await invalidInput({ name: 'theatre' }, 'name');
    const child = await create({ name: 'Theatre', parent: root.id });
    expect(child).toMatchObject({ slug: 'theatre-2', parent: root.id });
    await invalidInput({ name: 'THEATRE', parent: root.id }, 'name');
  });

  it('rejects bad input with 400 and changes nothing', async () => {
    const tag = await addTerm(env.db, 'tag', { name: 'A tag' });
    const missing = await rejected(CREATE, { input: { description: 'x' } });
    expect(missing).toMatchObject({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_missing_callback_param',
      params: ['name'],
    });
    await invalidInput({ name: '' }, 'name');
    await invalidInput({ name: '   ' }, 'name');
    await invalidInput({ name: 'x'.repeat(201) }, 'name');
    await invalidInput({ name: 'Ok', description: '' }, 'description');
    await invalidInput({ name: 'Ok', slug: '' }, 'slug');
    await invalidInput({ name: 'Ok', slug: '!!!' }, 'slug');
    await invalidInput({ name: 'Ok', parent: 999999 }, 'parent');
    await invalidInput({ name: 'Ok', parent: tag }, 'parent');
    await invalidInput({ name: 'Ok', parent: -3 }, 'parent');
  });

  it('lets editors write, forbids contributors, and checks input before permission', async () => {
    expect((await create({ name: 'By editor' }, 'editor')).slug).toBe('by-editor');
    const forbidden = await rejected(CREATE, { input: { name: 'Nope' } }, 'contributor');
    expect(forbidden).toMatchObject({ code: 'FORBIDDEN', rest_code: 'rest_forbidden' });
    expect(await rejected(CREATE, { input: { name: 'Nope' } }, 'author')).toMatchObject({
      code: 'FORBIDDEN',
    });
    const bad = await rejected(CREATE, { input: { name: '' } }, 'contributor');
    expect(bad).toMatchObject({ code: 'BAD_USER_INPUT', rest_code: 'rest_invalid_param' });
    const target = await create({ name: 'Guarded' });
    for (const [query, vars] of [
      [UPDATE, { id: target.id, input: { name: 'Hijacked' } }],
      [DELETE, { id: target.id }],
    ] as const) {
      const ext = await rejected(query, vars, 'subscriber');
      expect(ext).toMatchObject({ code: 'FORBIDDEN', rest_code: 'rest_forbidden' });
    }
  });

  it('updates only the fields sent', async () => {
    const made = await create({ name: 'Dance', description: 'Moves', slug: 'dance-floor' });
    expect(await update(made.id, { description: 'New moves' })).toMatchObject({
      name: 'Dance',
      slug: 'dance-floor',
      description: 'New moves',
    });
    expect(await update(made.id, { name: 'Ballet' })).toMatchObject({
      name: 'Ballet',
      slug: 'dance-floor',
      description: 'New moves',
    });
    expect(await update(made.id, { slug: 'ballet' })).toMatchObject({ slug: 'ballet' });
    expect(await update(made.id, { slug: 'ballet', name: 'Ballet' })).toMatchObject({
      slug: 'ballet',
    });
    // Issue 18: an empty description is refused (the contract's term rules); null clears it.
    await invalidInput({ description: '' }, 'description', made.id);
    expect(await update(made.id, { description: null })).toMatchObject({ description: '' });
    await create({ name: 'Ballroom', slug: 'classic' });
    expect(await update(made.id, { name: 'Classic', slug: null })).toMatchObject({
      slug: 'classic-2',
    });
  });

  it('moves a category in the tree, refusing cycles', async () => {
    const a = await create({ name: 'Tree A' });
    const b = await create({ name: 'Tree B', parent: a.id });
    const c = await create({ name: 'Tree C', parent: b.id });
    const moved = await update(c.id, { parent: a.id });
    expect(moved).toMatchObject({
      parent: a.id,
      url: 'http://calendar.test/events/category/tree-a/tree-c/',
      urls: { up: `${NS}/categories/${a.id}` },
    });
    await invalidInput({ parent: a.id }, 'parent', a.id);
    await invalidInput({ parent: b.id }, 'parent', a.id);
    await invalidInput({ parent: 999999 }, 'parent', a.id);
    expect(await update(b.id, { parent: 0 })).toMatchObject({ parent: 0, urls: { up: null } });
    // Issue 18: an empty parent (GraphQL null, REST `parent=""`) is refused; 0 is the top level.
    await invalidInput({ parent: null }, 'parent', c.id);
    expect(await update(c.id, { parent: 0 })).toMatchObject({ parent: 0 });
  });

  it('rejects bad updates, duplicates and unknown ids', async () => {
    const one = await create({ name: 'Update one' });
    await create({ name: 'Update two' });
    await invalidInput({ name: 'update TWO' }, 'name', one.id);
    await invalidInput({ name: '' }, 'name', one.id);
    await invalidInput({ name: null }, 'name', one.id);
    await invalidInput({ slug: '' }, 'slug', one.id);
    expect(await update(one.id, { name: 'UPDATE ONE' })).toMatchObject({ name: 'UPDATE ONE' });
    const tag = await addTerm(env.db, 'tag', { name: 'Not a category' });
    for (const id of [999999, tag]) {
      const ext = await rejected(UPDATE, { id, input: { name: 'x' } });
      expect(ext).toMatchObject({ code: 'NOT_FOUND', rest_code: 'rest-category-not-found' });
    }
  });

  it('deletes permanently, answering the category as it was', async () => {
    const parent = await create({ name: 'Doomed parent' });
    const doomed = await create({ name: 'Doomed', description: 'Bye', parent: parent.id });
    const child = await create({ name: 'Orphan', parent: doomed.id });
    const event = await eventWith(env.db, [doomed.id]);
    await eventWith(env.db, [doomed.id]);
    const gone = (await env.ok(DELETE, { id: doomed.id }, { as: 'administrator' })).delete_category;
    expect(gone).toMatchObject({
      id: doomed.id,
      name: 'Doomed',
      description: 'Bye',
      count: 2,
      parent: parent.id,
      url: 'http://calendar.test/events/category/doomed-parent/doomed/',
      urls: { up: `${NS}/categories/${parent.id}` },
    });
    const again = await rejected(DELETE, { id: doomed.id });
    expect(again).toMatchObject({ code: 'NOT_FOUND', rest_code: 'rest-category-not-found' });
    const lifted = await env.ok(`{ category(id: ${child.id}) { parent url } }`);
    expect(lifted.category).toEqual({
      parent: 0,
      url: 'http://calendar.test/events/category/orphan/',
    });
    expect(await env.db('event_terms').where({ event_id: event })).toEqual([]);
  });
});
