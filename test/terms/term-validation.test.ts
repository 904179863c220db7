import { describeEachDb } from '../support/harness';
import { RestClient, expectError, type RestOptions } from '../support/rest/rest-client';
import { CATEGORY_FIELDS, TAG_FIELDS } from '../support/term-fixtures';

/**
 * The term rules of docs/contract.md "Terms" (issue 18): on categories and tags, create and
 * update, REST and GraphQL alike, an empty `name`, `description`, `slug` or `parent`, or a
 * `parent` that is no existing category, is a 400 `rest_invalid_param` that changes nothing.
 */

const admin = { as: 'administrator' as const };

type Kind = 'category' | 'tag';
const COLLECTION: Record<Kind, string> = { category: 'categories', tag: 'tags' };
const FIELDS: Record<Kind, string> = { category: CATEGORY_FIELDS, tag: TAG_FIELDS };
const INPUT: Record<Kind, string> = { category: 'CategoryInput', tag: 'TagInput' };

/** Field values a write must refuse, and the parameter each names. */
const EMPTY: [Record<string, unknown>, string][] = [
  [{ name: '' }, 'name'],
  [{ name: '   ' }, 'name'],
  [{ description: '' }, 'description'],
  [{ description: '  ' }, 'description'],
  [{ slug: '' }, 'slug'],
  [{ slug: ' ' }, 'slug'],
];
const PARENTS: [Record<string, unknown>, string][] = [
  [{ parent: '' }, 'parent'],
  [{ parent: 999999 }, 'parent'],
  [{ parent: '999999' }, 'parent'],
  [{ parent: -1 }, 'parent'],
];

describeEachDb('term validation', (env) => {
  const rest = new RestClient(env);

  /** Runs a write that must be refused on `param`, and proves it changed nothing. */
  const refused = async (
    write: () => Promise<{ status: number; body: any }>,
    param: string,
  ): Promise<void> => {
    await env.user('administrator');
    const before = await env.snapshot();
    const response = await write();
    expectError(response as any, 400, 'rest_invalid_param');
    expect(Object.keys(response.body.data.params)).toEqual([param]);
    expect(await env.snapshot()).toBe(before);
  };

  const gqlRefused = async (query: string, vars: Record<string, unknown>, param: string) => {
    await env.user('administrator');
    const before = await env.snapshot();
    const result = await env.gql(query, vars, admin);
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_invalid_param',
    });
    expect(Object.keys(result.errors![0]!.extensions!.params)).toEqual([param]);
    expect(await env.snapshot()).toBe(before);
  };

  for (const kind of ['category', 'tag'] as const) {
    const path = `/${COLLECTION[kind]}`;
    const cases = kind === 'category' ? [...EMPTY, ...PARENTS] : EMPTY;

    it(`refuses empty fields on REST ${kind} creates, as JSON and as a form`, async () => {
      for (const [fields, param] of cases) {
        const body = { name: 'Fine', ...fields };
        await refused(() => rest.post(path, body, admin), param);
        const form = Object.entries(body).map(([k, v]) => [k, String(v)] as [string, string]);
        await refused(() => rest.request('POST', path, { ...admin, form }), param);
      }
    });

    it(`refuses empty fields on REST ${kind} updates, by POST, PUT and PATCH`, async () => {
      const term = (await rest.post(path, { name: `Kept ${kind}`, description: 'Kept' }, admin))
        .body;
      for (const [fields, param] of cases) {
        for (const method of ['POST', 'PUT', 'PATCH']) {
          const options: RestOptions = { ...admin, json: fields };
          await refused(() => rest.request(method, `${path}/${term.id}`, options), param);
        }
      }
      expect((await rest.get(`${path}/${term.id}`)).body).toMatchObject({
        name: `Kept ${kind}`,
        description: 'Kept',
        slug: `kept-${kind}`,
      });
    });

    it(`refuses empty fields on GraphQL ${kind} creates and updates`, async () => {
      const create = `mutation($input: ${INPUT[kind]}!) { create_${kind}(input: $input) { id } }`;
      const update = `mutation($id: Int!, $input: ${INPUT[kind]}!) {
        update_${kind}(id: $id, input: $input) { ${FIELDS[kind]} } }`;
      const term = (await env.ok(create, { input: { name: `Graph ${kind}` } }, admin))[
        `create_${kind}`
      ];
      const graphCases: [Record<string, unknown>, string][] = [
        ...EMPTY,
        ...(kind === 'category'
          ? ([
              [{ parent: null }, 'parent'],
              [{ parent: 999999 }, 'parent'],
              [{ parent: -1 }, 'parent'],
            ] as [Record<string, unknown>, string][])
          : []),
      ];
      for (const [fields, param] of graphCases) {
        await gqlRefused(create, { input: { name: 'Fine', ...fields } }, param);
        await gqlRefused(update, { id: term.id, input: fields }, param);
      }
    });
  }

  it('takes 0 (or "0") as the top level and an existing category as the parent', async () => {
    const parent = (await rest.post('/categories', { name: 'Parent cat' }, admin)).body;
    const child = await rest.post('/categories', { name: 'Child cat', parent: parent.id }, admin);
    expect(child.status).toBe(201);
    expect(child.body.parent).toBe(parent.id);
    const lifted = await rest.request('POST', `/categories/${child.body.id}`, {
      ...admin,
      form: [['parent', '0']],
    });
    expect(lifted.body.parent).toBe(0);
    const top = await rest.post('/categories', { name: 'Top cat', parent: 0 }, admin);
    expect(top.body.parent).toBe(0);
  });

  it('clears a description sent as null, and keeps what other fields say', async () => {
    const made = (await rest.post('/tags', { name: 'Nullable', description: 'Words' }, admin)).body;
    const cleared = await rest.post(`/tags/${made.id}`, { description: null }, admin);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ name: 'Nullable', description: '' });
  });
});
