import { describeEachDb } from '../support/harness';
import { firstError, insertEvent } from '../support/linked-fixtures';

const LIST = `query($page: Int, $per_page: Int, $search: String, $event: Int, $has_events: Boolean,
  $only_with_upcoming: Boolean, $status: [PostStatus!]) {
  organizers(page: $page, per_page: $per_page, search: $search, event: $event,
    has_events: $has_events, only_with_upcoming: $only_with_upcoming, status: $status) {
    organizers { id organizer json_ld } rest_url next_rest_url previous_rest_url total
    total_pages } }`;
const ROOT = 'http://calendar.test/wp-json/calendar/events/v1/organizers/';

describeEachDb('organizer lists', (env) => {
  const ids: Record<string, number> = {};
  const events: Record<string, number> = {};

  beforeAll(async () => {
    const organizers: [string, Record<string, unknown>][] = [
      ['two org', { phone: '331111', email: 'two@common.com' }],
      ['One Org', { phone: '1111-22', email: 'one@common.com', website: 'http://one.com' }],
      ['Three Org', { email: 'three@three.com', website: 'http://three.example' }],
      ['Four Org', { excerpt: 'No events of note' }],
      ['Zed Draft', { status: 'draft' }],
      ['Trash Org', {}],
    ];
    for (const [organizer, fields] of organizers) {
      const data = await env.ok(
        `mutation($input: OrganizerInput!) { create_organizer(input: $input) { id } }`,
        { input: { organizer, ...fields } },
        { as: 'administrator' },
      );
      ids[organizer] = data.create_organizer.id;
    }
    await env.ok(
      `mutation($id: Int!) { delete_organizer(id: $id) { id } }`,
      {
        id: ids['Trash Org'],
      },
      { as: 'administrator' },
    );
    events.future = await insertEvent(env, { organizerIds: [ids['two org']!, ids['One Org']!] });
    events.past = await insertEvent(env, {
      organizerIds: [ids['Three Org']!],
      start: '2026-10-01 12:00:00',
    });
    events.draft = await insertEvent(env, { organizerIds: [ids['Three Org']!], status: 'draft' });
    events.pending = await insertEvent(env, {
      organizerIds: [ids['Four Org']!],
      status: 'pending',
    });
    events.zed = await insertEvent(env, { organizerIds: [ids['Zed Draft']!, ids['Trash Org']!] });
  });

  const list = async (variables: Record<string, unknown> = {}, as?: 'editor') =>
    (await env.ok(LIST, variables, { as })).organizers;
  const names = async (variables: Record<string, unknown> = {}, as?: 'editor') =>
    (await list(variables, as)).organizers.map((o: { organizer: string }) => o.organizer);

  it('lists published organizers by name; editors also see drafts; never trashed', async () => {
    expect(await list()).toEqual({
      organizers: ['Four Org', 'One Org', 'Three Org', 'two org'].map((organizer) => ({
        id: ids[organizer],
        organizer,
        json_ld: null,
      })),
      rest_url: `${ROOT}?page=1&per_page=10&status=publish`,
      next_rest_url: null,
      previous_rest_url: null,
      total: 4,
      total_pages: 1,
    });
    expect(await names({}, 'editor')).toEqual([
      'Four Org',
      'One Org',
      'Three Org',
      'two org',
      'Zed Draft',
    ]);
    expect(await names({ status: ['draft', 'pending'] }, 'editor')).toEqual(['Zed Draft']);
    expect(firstError(await env.gql(LIST, { status: ['private'] }))).toMatchObject({
      rest_code: 'rest_invalid_param',
      params: { status: expect.any(String) },
    });
  });

  it('pages and answers 404 past the last page', async () => {
    const page = await list({ page: 2, per_page: 3 });
    expect(page).toMatchObject({
      organizers: [{ organizer: 'two org' }],
      next_rest_url: null,
      previous_rest_url: `${ROOT}?per_page=3&status=publish`,
      total: 4,
      total_pages: 2,
    });
    expect(firstError(await env.gql(LIST, { page: 3, per_page: 3 }))).toMatchObject({
      code: 'NOT_FOUND',
      rest_code: 'organizer-archive-page-not-found',
    });
  });

  it('searches: some single field holds every word, case-insensitively', async () => {
    expect(await names({ search: '1111' })).toEqual(['One Org', 'two org']);
    expect(await names({ search: 'three@three.com' })).toEqual(['Three Org']);
    expect(await names({ search: 'COMMON.com' })).toEqual(['One Org', 'two org']);
    expect(await names({ search: 'http://one.com' })).toEqual(['One Org']);
    expect(await names({ search: '@common.com' })).toEqual(['One Org', 'two org']);
    expect(await names({ search: 'note events' })).toEqual(['Four Org']);
    // The name holds "org" and "three", the e-mail "three" and "com": no single field has all.
    expect(await names({ search: 'org three.com' })).toEqual([]);
    expect(firstError(await env.gql(LIST, { search: '' }))).toMatchObject({
      params: { search: expect.any(String) },
    });
  });

  it('filters by linked event, which must exist', async () => {
    expect(await names({ event: events.future })).toEqual(['One Org', 'two org']);
    expect(await names({ event: events.zed })).toEqual([]);
    expect(await names({ event: events.zed }, 'editor')).toEqual(['Zed Draft']);
    expect(firstError(await env.gql(LIST, { event: ids['One Org'] }))).toMatchObject({
      rest_code: 'rest_invalid_param',
      params: { event: expect.any(String) },
    });
  });

  it('has_events ignores draft and pending events', async () => {
    expect(await names({ has_events: true })).toEqual(['One Org', 'Three Org', 'two org']);
    expect(await names({ has_events: false })).toEqual(['Four Org']);
    expect(await names({ has_events: false }, 'editor')).toEqual(['Four Org']);
    expect(await names({ has_events: true }, 'editor')).toContain('Zed Draft');
  });

  it('only_with_upcoming uses the events the caller may see', async () => {
    expect(await names({ only_with_upcoming: true })).toEqual(['One Org', 'two org']);
    expect(await names({ only_with_upcoming: true }, 'editor')).toEqual([
      'Four Org',
      'One Org',
      'Three Org',
      'two org',
      'Zed Draft',
    ]);
    const page = await list({ only_with_upcoming: true, search: 'org', per_page: 1 });
    expect(page).toMatchObject({
      total: 2,
      next_rest_url: `${ROOT}?page=2&per_page=1&search=org&only_with_upcoming=true&status=publish`,
    });
  });
});
