import { describeEachDb, type Caller } from '../support/harness';
import { addTerm, eventWith, TAG_FIELDS } from '../support/term-fixtures';

const NS = 'http://calendar.test/wp-json/calendar/events/v1';

const CREATE = `mutation ($input: TagInput!) { create_tag(input: $input) { ${TAG_FIELDS} } }`;
const UPDATE = `mutation ($id: Int!, $input: TagInput!) {
  update_tag(id: $id, input: $input) { ${TAG_FIELDS} } }`;
const DELETE = `mutation ($id: Int!) { delete_tag(id: $id) { ${TAG_FIELDS} } }`;

describeEachDb('tag writes', (env) => {
  const create = (input: Record<string, unknown>, as: Caller = 'administrator') =>
    env.ok(CREATE, { input }, { as }).then((d) => d.create_tag);

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

  it('creates a tag like the reference sample', async () => {
    const made = await create({ name: 'Jazz', description: 'Jazz tag' });
    expect(made).toEqual({
      id: made.id,
      count: 0,
      description: 'Jazz tag',
      name: 'Jazz',
      slug: 'jazz',
      taxonomy: 'post_tag',
      meta: [],
      url: 'http://calendar.test/tag/jazz/',
      urls: { self: `${NS}/tags/${made.id}`, collection: `${NS}/tags`, up: null },
      term_group: 0,
      term_taxonomy_id: made.id,
      filter: 'raw',
    });
  });

  it('keeps slugs and names unique per taxonomy only', async () => {
    await addTerm(env.db, 'category', { name: 'Shared', slug: 'shared' });
    expect((await create({ name: 'Shared' })).slug).toBe('shared');
    expect((await create({ name: 'Shared too', slug: 'shared' })).slug).toBe('shared-2');
    const dup = await rejected(CREATE, { input: { name: 'SHARED' } });
    expect(dup).toMatchObject({ code: 'BAD_USER_INPUT', params: { name: expect.any(String) } });
  });

  it('rejects bad input before checking permission, and contributors after', async () => {
    for (const input of [
      {},
      { name: '' },
      { name: 'x', description: '' },
      { name: 'x', slug: '' },
    ]) {
      const ext = await rejected(CREATE, { input }, 'contributor');
      expect(ext.code).toBe('BAD_USER_INPUT');
    }
    const ext = await rejected(CREATE, { input: { name: 'Fine' } }, 'contributor');
    expect(ext).toMatchObject({ code: 'FORBIDDEN', rest_code: 'rest_forbidden' });
    expect((await create({ name: 'By editor' }, 'editor')).name).toBe('By editor');
  });

  it('updates partially and 404s for unknown ids or categories', async () => {
    const made = await create({ name: 'Folk', description: 'Songs' });
    const renamed = await env.ok(
      UPDATE,
      { id: made.id, input: { name: 'Folk music' } },
      { as: 'administrator' },
    );
    expect(renamed.update_tag).toMatchObject({
      name: 'Folk music',
      slug: 'folk',
      description: 'Songs',
    });
    const category = await addTerm(env.db, 'category', { name: 'A category' });
    for (const id of [category, 999999]) {
      const nf = await rejected(UPDATE, { id, input: { name: 'x' } });
      expect(nf).toMatchObject({ code: 'NOT_FOUND', rest_code: 'rest-tag-not-found' });
    }
    const forbidden = await rejected(UPDATE, { id: made.id, input: { name: 'x' } }, 'contributor');
    expect(forbidden.code).toBe('FORBIDDEN');
  });

  it('deletes permanently with the count it had', async () => {
    const made = await create({ name: 'Ephemeral' });
    await eventWith(env.db, [made.id]);
    await eventWith(env.db, [made.id], 'draft');
    const forbidden = await rejected(DELETE, { id: made.id }, 'contributor');
    expect(forbidden.code).toBe('FORBIDDEN');
    const gone = (await env.ok(DELETE, { id: made.id }, { as: 'administrator' })).delete_tag;
    expect(gone).toMatchObject({ id: made.id, name: 'Ephemeral', count: 1, urls: { up: null } });
    const read = await env.gql(`{ tag(id: ${made.id}) { id } }`);
    expect(read.errors?.[0]?.extensions).toMatchObject({ rest_code: 'rest-tag-not-found' });
    expect(await env.db('terms').where({ id: made.id })).toEqual([]);
  });
});
