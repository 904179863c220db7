import { describeEachDb } from '../support/harness';
import { insertEvent } from '../support/linked-fixtures';

/** The nested `events` field of venues and organizers (served by the events list). */
describeEachDb('events of a venue and of an organizer', (env) => {
  it('lists the events linked to the record, paged', async () => {
    const { create_venue: venue } = await env.ok(
      `mutation { create_venue(input: { venue: "Busy Hall" }) { id } }`,
      {},
      { as: 'administrator' },
    );
    const { create_organizer: organizer } = await env.ok(
      `mutation { create_organizer(input: { organizer: "Busy Org" }) { id } }`,
      {},
      { as: 'administrator' },
    );
    const first = await insertEvent(env, {
      venueId: venue.id,
      organizerIds: [organizer.id],
      start: '2026-12-01 10:00:00',
    });
    const second = await insertEvent(env, { venueId: venue.id, start: '2026-12-02 10:00:00' });
    await insertEvent(env, { start: '2026-12-03 10:00:00' });

    const data = await env.ok(`{
      venue(id: ${venue.id}) { events(per_page: 1) { events { id } total total_pages } }
      organizer(id: ${organizer.id}) { events { events { id } total } } }`);
    expect(data.venue.events).toEqual({ events: [{ id: first }], total: 2, total_pages: 2 });
    expect(data.organizer.events).toEqual({ events: [{ id: first }], total: 1 });
    const page2 = await env.ok(`{
      venue(id: ${venue.id}) { events(page: 2, per_page: 1) { events { id } } } }`);
    expect(page2.venue.events.events).toEqual([{ id: second }]);
  });
});
