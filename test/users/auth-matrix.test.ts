import type { Role } from '../../src/users/roles';
import type { PostStatus } from '../../src/db/rows';
import { insertEvent } from '../support/event-fixtures';
import { describeEachDb, type Caller, type TestEnv } from '../support/harness';

/**
 * Who may write what (docs/contract.md §9; the reference's AuthorizationCest): every role ×
 * operation cell for events, venues and organizers — create, update and delete of own and others'
 * records, draft and published, through the id and the slug mutations — publishing, and term
 * writes. Every refused write must change nothing.
 */

const CALLERS: Caller[] = [
  'anonymous',
  'subscriber',
  'contributor',
  'author',
  'editor',
  'administrator',
];
type Outcome = 'ok' | 'UNAUTHENTICATED' | 'FORBIDDEN';

interface Resource {
  name: 'event' | 'venue' | 'organizer';
  input: (title: string) => Record<string, unknown>;
  change: Record<string, unknown>;
  seed: (env: TestEnv, title: string, authorId: number, status: PostStatus) => Promise<number>;
}

let n = 0;
const unique = (prefix: string): string => `${prefix} ${++n} ${process.pid}`;
const slugOf = (title: string): string => title.toLowerCase().replace(/[^a-z0-9]+/g, '-');

async function seedLinked(
  env: TestEnv,
  table: 'venues' | 'organizers',
  title: string,
  authorId: number,
  status: PostStatus,
): Promise<number> {
  const [raw] = await env
    .db('post_ids')
    .insert({ type: table === 'venues' ? 'venue' : 'organizer' });
  const id = Number(raw);
  const stamp = '2026-11-01 10:00:00';
  await env.db(table).insert({
    id,
    status,
    slug: slugOf(title),
    title,
    description: '',
    excerpt: '',
    author_id: authorId,
    date: stamp,
    date_utc: stamp,
    modified: stamp,
    modified_utc: stamp,
  });
  return id;
}

const RESOURCES: Resource[] = [
  {
    name: 'event',
    input: (title) => ({ title, start_date: '2027-02-01 10:00', end_date: '2027-02-01 12:00' }),
    change: { excerpt: 'changed' },
    seed: (env, title, author_id, status) =>
      insertEvent(env, {
        title,
        slug: slugOf(title),
        status,
        author_id,
        start: '2027-02-01 10:00:00',
      }),
  },
  {
    name: 'venue',
    input: (title) => ({ venue: title }),
    change: { city: 'Changed' },
    seed: (env, title, authorId, status) => seedLinked(env, 'venues', title, authorId, status),
  },
  {
    name: 'organizer',
    input: (title) => ({ organizer: title }),
    change: { phone: '555' },
    seed: (env, title, authorId, status) => seedLinked(env, 'organizers', title, authorId, status),
  },
];

function mutations(resource: Resource['name']) {
  const Input = `${resource[0]!.toUpperCase()}${resource.slice(1)}Input`;
  return {
    create: `mutation($input: ${Input}!) { r: create_${resource}(input: $input) { id status } }`,
    update: `mutation($id: Int!, $input: ${Input}!) { r: update_${resource}(id: $id, input: $input) { id } }`,
    updateBySlug: `mutation($slug: String!, $input: ${Input}!) {
      r: update_${resource}_by_slug(slug: $slug, input: $input) { id } }`,
    delete: `mutation($id: Int!) { r: delete_${resource}(id: $id) { id } }`,
    deleteBySlug: `mutation($slug: String!) { r: delete_${resource}_by_slug(slug: $slug) { id } }`,
  };
}

/** docs/contract.md §9: what a role may do to a record, by ownership and publication. */
function expectedEdit(caller: Caller, own: boolean, published: boolean): Outcome {
  if (caller === 'anonymous') return 'UNAUTHENTICATED';
  if (caller === 'editor' || caller === 'administrator') return 'ok';
  if (!own || caller === 'subscriber') return 'FORBIDDEN';
  if (caller === 'author') return 'ok';
  return published ? 'FORBIDDEN' : 'ok';
}

function expectedCreate(caller: Caller): Outcome {
  if (caller === 'anonymous') return 'UNAUTHENTICATED';
  return caller === 'subscriber' ? 'FORBIDDEN' : 'ok';
}

describeEachDb('authorization matrix', (env) => {
  /** The outcome of a write; a refused one must leave every table as it was. */
  async function attempt(
    query: string,
    variables: Record<string, unknown>,
    as: Caller,
  ): Promise<Outcome | string> {
    await env.authHeaders(as);
    const before = await env.snapshot();
    const result = await env.gql(query, variables, { as });
    if (!result.errors) return 'ok';
    expect(await env.snapshot()).toBe(before);
    return String(result.errors[0]?.extensions?.code);
  }

  /** Someone else: an author who is never a caller of these tests. */
  const otherAuthor = async (): Promise<number> =>
    (await env.createUser('author', 'other-author')).id;

  for (const resource of RESOURCES) {
    const m = mutations(resource.name);

    it.each(CALLERS)(
      `${resource.name}s: create, and edit/delete own and others' records, as %s`,
      async (caller) => {
        const actual: Record<string, string> = {};
        const expected: Record<string, string> = {};
        actual.create = await attempt(
          m.create,
          { input: resource.input(unique('Create')) },
          caller,
        );
        expected.create = expectedCreate(caller);
        const owners: [string, boolean][] = [["others'", false]];
        if (caller !== 'anonymous') owners.push(['own', true]);
        for (const [label, own] of owners) {
          for (const status of ['draft', 'publish'] as const) {
            const authorId = own ? await env.userId(caller as Role) : await otherAuthor();
            const want = expectedEdit(caller, own, status === 'publish');
            const ops: [string, string, (id: number, slug: string) => Record<string, unknown>][] = [
              ['update', m.update, (id) => ({ id, input: resource.change })],
              ['update by slug', m.updateBySlug, (_id, slug) => ({ slug, input: resource.change })],
              ['delete', m.delete, (id) => ({ id })],
              ['delete by slug', m.deleteBySlug, (_id, slug) => ({ slug })],
            ];
            for (const [op, query, vars] of ops) {
              const title = unique(`${label} ${status}`);
              const id = await resource.seed(env, title, authorId, status);
              const key = `${op} ${label} ${status}`;
              actual[key] = await attempt(query, vars(id, slugOf(title)), caller);
              expected[key] = want;
            }
          }
        }
        expect(actual).toEqual(expected);
      },
    );

    it(`${resource.name}s: contributors cannot publish — publish/future become pending, no status is draft`, async () => {
      const statusAs = async (caller: Caller, status?: string) => {
        const input = { ...resource.input(unique('Publish')), ...(status ? { status } : {}) };
        const data = await env.ok(m.create, { input }, { as: caller });
        return data.r.status as string;
      };
      for (const caller of ['author', 'editor', 'administrator'] as const) {
        expect([caller, await statusAs(caller, 'publish'), await statusAs(caller)]).toEqual([
          caller,
          'publish',
          'publish',
        ]);
      }
      expect(await statusAs('contributor', 'publish')).toBe('pending');
      expect(await statusAs('contributor', 'future')).toBe('pending');
      expect(await statusAs('contributor', 'draft')).toBe('draft');
      expect(await statusAs('contributor')).toBe('draft');
      // Updating an own draft to publish scales back too.
      const title = unique('Own draft');
      const id = await resource.seed(env, title, await env.userId('contributor'), 'draft');
      await env.ok(m.update, { id, input: { status: 'publish' } }, { as: 'contributor' });
      const stored = await env.db(`${resource.name}s`).where({ id }).first();
      expect(stored.status).toBe('pending');
    });

    it(`${resource.name}s: only editors and above name another user as author`, async () => {
      const editor = await env.userId('editor');
      const forbidden = await attempt(
        m.create,
        { input: { ...resource.input(unique('Attr')), author: editor } },
        'contributor',
      );
      expect(forbidden).toBe('FORBIDDEN');
      const title = unique('Author own');
      const own = await resource.seed(env, title, await env.userId('author'), 'publish');
      expect(await attempt(m.update, { id: own, input: { author: editor } }, 'author')).toBe(
        'FORBIDDEN',
      );
      const self = await env.userId('author');
      expect(await attempt(m.update, { id: own, input: { author: self } }, 'author')).toBe('ok');
      const made = await env.ok(
        m.create,
        { input: { ...resource.input(unique('By editor')), author: self } },
        { as: 'editor' },
      );
      const stored = await env.db(`${resource.name}s`).where({ id: made.r.id }).first();
      expect(Number(stored.author_id)).toBe(self);
    });
  }

  it('checks input before credentials: bad input is 400 and an unknown event 404, even anonymously', async () => {
    const events = mutations('event');
    const missing = await env.gql(
      events.create,
      { input: { title: 'No dates' } },
      { as: 'anonymous' },
    );
    expect(missing.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_missing_callback_param',
    });
    const id = await RESOURCES[0]!.seed(env, unique('Target'), 1, 'publish');
    const bad = await env.gql(
      events.update,
      { id, input: { website: 'not a url' } },
      { as: 'anonymous' },
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      params: { website: expect.any(String) },
    });
    for (const [query, vars] of [
      [events.update, { id: 987654, input: { title: 'x' } }],
      [events.delete, { id: 987654 }],
      [events.updateBySlug, { slug: 'no-such-event', input: { title: 'x' } }],
    ] as const) {
      const nf = await env.gql(query, vars, { as: 'anonymous' });
      expect(nf.errors?.[0]?.extensions).toMatchObject({
        code: 'NOT_FOUND',
        rest_code: 'rest-event-not-found',
      });
    }
    const venue = await env.gql(
      mutations('venue').create,
      { input: { venue: ' ' } },
      { as: 'anonymous' },
    );
    expect(venue.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    // Allowed or not comes before "already in the trash" (410).
    const trashed = await RESOURCES[0]!.seed(env, unique('Trashed'), 1, 'trash');
    expect(await attempt(events.delete, { id: trashed }, 'anonymous')).toBe('UNAUTHENTICATED');
    expect(await attempt(events.delete, { id: trashed }, 'contributor')).toBe('FORBIDDEN');
    expect(await attempt(events.delete, { id: trashed }, 'editor')).toBe('GONE');
  });

  it('answers 401 with rest_forbidden to anonymous writes and 403 rest_forbidden to others', async () => {
    const { create } = mutations('event');
    const input = RESOURCES[0]!.input(unique('Codes'));
    const anonymous = await env.gql(create, { input }, { as: 'anonymous' });
    expect(anonymous.data).toBeNull();
    expect(anonymous.errors?.[0]?.extensions).toEqual({
      code: 'UNAUTHENTICATED',
      rest_code: 'rest_forbidden',
    });
    const subscriber = await env.gql(create, { input }, { as: 'subscriber' });
    expect(subscriber.errors?.[0]?.extensions).toEqual({
      code: 'FORBIDDEN',
      rest_code: 'rest_forbidden',
    });
  });

  for (const taxonomy of ['category', 'tag'] as const) {
    it.each(CALLERS)(`${taxonomy} writes need editor or above: %s`, async (caller) => {
      const Input = taxonomy === 'category' ? 'CategoryInput' : 'TagInput';
      const create = `mutation($input: ${Input}!) { r: create_${taxonomy}(input: $input) { id } }`;
      const update = `mutation($id: Int!, $input: ${Input}!) { r: update_${taxonomy}(id: $id, input: $input) { id } }`;
      const remove = `mutation($id: Int!) { r: delete_${taxonomy}(id: $id) { id } }`;
      const seed = async () => {
        const name = unique('Term');
        const [id] = await env
          .db('terms')
          .insert({ taxonomy, name, slug: slugOf(name), description: '', count: 0 });
        return Number(id);
      };
      const want: Outcome =
        caller === 'anonymous'
          ? 'UNAUTHENTICATED'
          : caller === 'editor' || caller === 'administrator'
            ? 'ok'
            : 'FORBIDDEN';
      expect({
        create: await attempt(create, { input: { name: unique('New term') } }, caller),
        update: await attempt(update, { id: await seed(), input: { description: 'x' } }, caller),
        delete: await attempt(remove, { id: await seed() }, caller),
      }).toEqual({ create: want, update: want, delete: want });
    });
  }
});
