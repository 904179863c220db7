import { describeEachDb, type Caller } from '../support/harness';
import { firstError, insertEvent, ORGANIZER_FIELDS } from '../support/linked-fixtures';

const CREATE = `mutation($input: OrganizerInput!) {
  create_organizer(input: $input) { ${ORGANIZER_FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $input: OrganizerInput!) {
  update_organizer(id: $id, input: $input) { ${ORGANIZER_FIELDS} } }`;
const UPDATE_BY_SLUG = `mutation($slug: String!, $input: OrganizerInput!) {
  update_organizer_by_slug(slug: $slug, input: $input) { id slug organizer phone } }`;
const DELETE = `mutation($id: Int!, $force: Boolean) {
  delete_organizer(id: $id, force: $force) { ${ORGANIZER_FIELDS} } }`;
const DELETE_BY_SLUG = `mutation($slug: String!, $force: Boolean) {
  delete_organizer_by_slug(slug: $slug, force: $force) { id status } }`;
const READ = `query($id: Int!) { organizer(id: $id) { ${ORGANIZER_FIELDS} } }`;
const READ_BY_SLUG = `query($slug: String!) {
  organizer_by_slug(slug: $slug) { ${ORGANIZER_FIELDS} } }`;

describeEachDb('organizer writes', (env) => {
  const create = async (input: Record<string, unknown>, as: Caller = 'administrator') =>
    (await env.ok(CREATE, { input }, { as })).create_organizer;
  const update = async (id: number, input: Record<string, unknown>) =>
    (await env.ok(UPDATE, { id, input }, { as: 'administrator' })).update_organizer;
  const count = async () => Number((await env.db('organizers').count({ n: '*' }))[0]?.n);

  it('creates an organizer and reads it back by id and by slug, with JSON-LD', async () => {
    const created = await create({
      organizer: 'Acme Org',
      description: '<p>We organize</p>',
      phone: '555-9876',
      website: 'https://acme.example.com',
      email: 'org@example.com',
      date: '2026-11-20 10:30:00',
    });
    expect(created).toMatchObject({
      author: '1',
      status: 'publish',
      date: '2026-11-20 10:30:00',
      date_utc: '2026-11-20 10:30:00',
      modified: '2026-11-21 08:00:00',
      url: 'http://calendar.test/organizer/acme-org/',
      organizer: 'Acme Org',
      description: '<p>We organize</p>',
      excerpt: '',
      slug: 'acme-org',
      image: null,
      email: 'org@example.com',
      json_ld: null,
      global_id: `calendar.test?id=${created.id}`,
    });
    const { organizer } = await env.ok(READ, { id: created.id });
    expect({ ...organizer, json_ld: null }).toEqual(created);
    expect(organizer.json_ld).toEqual({
      '@type': 'Person',
      name: 'Acme Org',
      description: 'We organize',
      url: 'https://acme.example.com',
      telephone: '555-9876',
      email: 'org@example.com',
      sameAs: 'https://acme.example.com',
    });
    const { organizer_by_slug } = await env.ok(READ_BY_SLUG, { slug: 'acme-org' });
    expect(organizer_by_slug).toEqual(organizer);
  });

  it('de-duplicates creates by name (any case) and by description when given', async () => {
    const first = await create({ organizer: 'Dup Org', phone: '1' });
    const before = await count();
    expect(await create({ organizer: 'dup ORG', phone: '2' })).toEqual(first);
    expect(await count()).toBe(before);
    const described = await create({ organizer: 'Desc Org', description: 'one' });
    expect((await create({ organizer: 'DESC org', description: 'one' })).id).toBe(described.id);
    const other = await create({ organizer: 'Desc Org', description: 'two' });
    expect(other).toMatchObject({ slug: 'desc-org-2' });
    expect(other.id).not.toBe(described.id);
  });

  it('accepts any e-mail text; updates are partial and "" clears', async () => {
    const o = await create({
      organizer: 'Partial Org',
      phone: '111',
      email: 'not an address',
      website: 'http://partial.test',
    });
    expect(o.email).toBe('not an address');
    const renamed = await update(o.id, { organizer: 'Renamed Org' });
    expect(renamed).toEqual({ ...o, organizer: 'Renamed Org' });
    const cleared = await update(o.id, { phone: '', email: null, website: '' });
    expect(cleared).toMatchObject({ organizer: 'Renamed Org', phone: '', email: '', website: '' });
  });

  it('rejects invalid input naming the field, and changes nothing', async () => {
    const o = await create({ organizer: 'Valid Org' });
    const cases: [string, Record<string, unknown>, string][] = [
      [CREATE, { input: { organizer: 'Bad', website: 'foo' } }, 'website'],
      [CREATE, { input: { organizer: 'Bad', author: 4242 } }, 'author'],
      [CREATE, { input: { organizer: 'Bad', status: 'trash' } }, 'status'],
      [CREATE, { input: { organizer: 'Bad', date_utc: 'someday maybe' } }, 'date_utc'],
      [CREATE, { input: { organizer: '' } }, 'organizer'],
      [UPDATE, { id: o.id, input: { organizer: '   ' } }, 'organizer'],
      [UPDATE, { id: o.id, input: { phone: '2', website: 'mailto:x@y.z' } }, 'website'],
      [UPDATE, { id: o.id, input: { status: 'trash' } }, 'status'],
    ];
    for (const [query, variables, param] of cases) {
      const before = await env.snapshot();
      const error = firstError(await env.gql(query, variables, { as: 'administrator' }));
      expect({ param, ...error }).toMatchObject({
        param,
        code: 'BAD_USER_INPUT',
        rest_code: 'rest_invalid_param',
        params: { [param]: expect.any(String) },
      });
      expect(await env.snapshot()).toBe(before);
    }
  });

  it('requires the name on create', async () => {
    const before = await env.snapshot();
    const error = firstError(
      await env.gql(CREATE, { input: { email: 'a@b.c' } }, { as: 'administrator' }),
    );
    expect(error).toEqual({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_missing_callback_param',
      params: ['organizer'],
    });
    expect(await env.snapshot()).toBe(before);
  });

  it('trashes (keeping event links), refuses a second trash, deletes for good with force', async () => {
    const o = await create({ organizer: 'Doomed Org' });
    const eventId = await insertEvent(env, { organizerIds: [o.id] });
    const links = () => env.db('event_organizers').where({ event_id: eventId });

    expect(
      (await env.ok(DELETE, { id: o.id }, { as: 'administrator' })).delete_organizer.status,
    ).toBe('trash');
    expect(await links()).toHaveLength(1);
    expect(firstError(await env.gql(DELETE, { id: o.id }, { as: 'administrator' }))).toMatchObject({
      code: 'GONE',
      rest_code: 'organizer-is-in-trash',
    });
    // Restoring is an update of the status.
    expect((await update(o.id, { status: 'publish' })).status).toBe('publish');
    await env.ok(DELETE, { id: o.id }, { as: 'administrator' });

    await env.ok(DELETE, { id: o.id, force: true }, { as: 'administrator' });
    expect(await env.db('organizers').where({ id: o.id })).toEqual([]);
    expect(await links()).toEqual([]);
    expect(firstError(await env.gql(READ, { id: o.id }))).toMatchObject({
      code: 'NOT_FOUND',
      rest_code: 'rest-organizer-not-found',
    });
  });

  it('works by slug: path slug identifies, input.slug renames', async () => {
    const o = await create({ organizer: 'Slug Org' });
    const { update_organizer_by_slug: renamed } = await env.ok(
      UPDATE_BY_SLUG,
      {
        slug: 'slug-org',
        input: { slug: 'fresh-slug', phone: '9' },
      },
      { as: 'administrator' },
    );
    expect(renamed).toEqual({ id: o.id, slug: 'fresh-slug', organizer: 'Slug Org', phone: '9' });
    const stale = await env.gql(DELETE_BY_SLUG, { slug: 'slug-org' }, { as: 'administrator' });
    expect(firstError(stale)).toMatchObject({ rest_code: 'rest-organizer-not-found' });
    const { delete_organizer_by_slug } = await env.ok(
      DELETE_BY_SLUG,
      { slug: 'fresh-slug' },
      { as: 'administrator' },
    );
    expect(delete_organizer_by_slug).toEqual({ id: o.id, status: 'trash' });
  });

  it('shows a draft to editors only', async () => {
    const draft = await create({ organizer: 'Draft Org', status: 'draft' }, 'editor');
    expect(firstError(await env.gql(READ, { id: draft.id }))).toMatchObject({
      code: 'FORBIDDEN',
      rest_code: 'organizer-not-accessible',
    });
    const { organizer } = await env.ok(READ, { id: draft.id }, { as: 'editor' });
    expect(organizer.status).toBe('draft');
  });
});
