import { resetCalendar } from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * Contributors cannot make anything `private` (issue 16). As WordPress does for a caller without
 * the right to publish (wp-admin `_wp_translate_postdata`), a create asking for it gets
 * `pending` and an update keeps the record's stored status; publishers keep `private`.
 */

const RECORDS = [
  {
    kind: 'event',
    path: '/events',
    table: 'events',
    body: {
      title: 'Quiet gig',
      start_date: '2027-02-01 19:00:00',
      end_date: '2027-02-01 21:00:00',
    },
  },
  { kind: 'venue', path: '/venues', table: 'venues', body: { venue: 'Quiet Hall' } },
  {
    kind: 'organizer',
    path: '/organizers',
    table: 'organizers',
    body: { organizer: 'Quiet Crew' },
  },
] as const;

describeEachDb('contributors and the private status', (env) => {
  const rest = new RestClient(env);
  beforeEach(() => resetCalendar(env));

  const stored = async (table: string, id: number): Promise<string> =>
    (await env.db(table).where({ id }).first()).status;

  it.each(RECORDS)('a contributor creating a private $kind gets pending', async (r) => {
    const res = await rest.post(r.path, { ...r.body, status: 'private' }, { as: 'contributor' });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending');
    expect(await stored(r.table, res.body.id)).toBe('pending');
  });

  it.each(RECORDS)('a contributor updating their $kind to private keeps its status', async (r) => {
    const created = await rest.post(r.path, r.body, { as: 'contributor' });
    expect(created.body.status).toBe('draft');
    const id = created.body.id as number;
    const res = await rest.post(`${r.path}/${id}`, { status: 'private' }, { as: 'contributor' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('draft');
    await rest.post(`${r.path}/${id}`, { status: 'pending' }, { as: 'contributor' });
    const again = await rest.put(`${r.path}/${id}`, { status: 'private' }, { as: 'contributor' });
    expect(again.body.status).toBe('pending');
    expect(await stored(r.table, id)).toBe('pending');
  });

  it('answers GraphQL the same way', async () => {
    const input = { ...RECORDS[0].body, status: 'private' };
    const created = await env.ok(
      `mutation($input: EventInput!) { create_event(input: $input) { id status } }`,
      { input },
      { as: 'contributor' },
    );
    expect(created.create_event.status).toBe('pending');
    const venue = await env.ok(
      `mutation($input: VenueInput!) { create_venue(input: $input) { id status } }`,
      { input: { venue: 'Quiet Room', status: 'draft' } },
      { as: 'contributor' },
    );
    const updated = await env.ok(
      `mutation($id: Int!) { update_venue(id: $id, input: { status: private }) { status } }`,
      { id: venue.create_venue.id },
      { as: 'contributor' },
    );
    expect(updated.update_venue.status).toBe('draft');
  });

  it.each(['author', 'editor'] as const)('lets %s callers store private records', async (as) => {
    for (const r of RECORDS) {
      const res = await rest.post(r.path, { ...r.body, status: 'private' }, { as });
      expect({ path: r.path, status: res.body.status }).toEqual({
        path: r.path,
        status: 'private',
      });
    }
  });
});
