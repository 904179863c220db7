import type { PostStatus } from '../../src/db/rows';
import {
  insertEvent,
  insertOrganizer,
  insertVenue,
  resetCalendar,
} from '../support/event-fixtures';
import { describeEachDb, type Caller } from '../support/harness';

/**
 * Who sees what (docs/contract.md §6 `status`, §9): anonymous callers and subscribers only
 * `publish`; contributors and above every status but `trash`, in lists, single reads (by id and
 * slug) and data nested in events — all through real credentials.
 */

const STATUSES: PostStatus[] = ['publish', 'draft', 'pending', 'private', 'future', 'trash'];
const CALLERS: Caller[] = ['anonymous', 'subscriber', 'contributor', 'editor', 'administrator'];
const privileged = (caller: Caller): boolean =>
  caller === 'contributor' || caller === 'editor' || caller === 'administrator';

describeEachDb('visibility by caller', (env) => {
  const ids: Record<'event' | 'venue' | 'organizer', Record<string, number>> = {
    event: {},
    venue: {},
    organizer: {},
  };

  beforeAll(async () => {
    await resetCalendar(env);
    for (const status of STATUSES) {
      ids.venue[status] = await insertVenue(env, { title: `Venue ${status}`, status });
      ids.organizer[status] = await insertOrganizer(env, { title: `Org ${status}`, status });
      ids.event[status] = await insertEvent(env, {
        title: `Event ${status}`,
        slug: `event-${status}`,
        status,
        start: '2026-12-05 10:00:00',
      });
    }
  });

  it.each(CALLERS)('lists what %s may see, by default and with a status filter', async (caller) => {
    const as = { as: caller };
    const { events } = await env.ok('{ events(per_page: 50) { events { status } } }', {}, as);
    const { venues } = await env.ok('{ venues(per_page: 50) { venues { status } } }', {}, as);
    const { organizers } = await env.ok(
      '{ organizers(per_page: 50) { organizers { status } } }',
      {},
      as,
    );
    const visible = privileged(caller) ? STATUSES.filter((s) => s !== 'trash') : ['publish'];
    const statuses = (rows: { status: string }[]) => rows.map((r) => r.status).sort();
    expect(statuses(events.events)).toEqual([...visible].sort());
    expect(statuses(venues.venues)).toEqual([...visible].sort());
    expect(statuses(organizers.organizers)).toEqual([...visible].sort());

    const drafts = await env.gql(
      '{ events(status: [draft, pending]) { events { status } } }',
      {},
      as,
    );
    if (privileged(caller)) {
      expect(statuses(drafts.data!.events.events)).toEqual(['draft', 'pending']);
    } else {
      expect(drafts.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        params: { status: expect.any(String) },
      });
    }
  });

  it.each(CALLERS)('reads single records as %s: 403 when not visible', async (caller) => {
    const outcome: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const resource of ['event', 'venue', 'organizer'] as const) {
      for (const status of STATUSES) {
        const query = `query($id: Int!) { r: ${resource}(id: $id) { id } }`;
        const result = await env.gql(query, { id: ids[resource][status] }, { as: caller });
        const key = `${resource} ${status}`;
        outcome[key] = result.errors
          ? String(result.errors[0]?.extensions?.rest_code)
          : result.data?.r.id === ids[resource][status]
            ? 'ok'
            : 'wrong record';
        expected[key] =
          status === 'trash' && resource === 'event'
            ? 'event-no-longer-available'
            : status === 'publish' || (privileged(caller) && status !== 'trash')
              ? 'ok'
              : `${resource}-not-accessible`;
      }
    }
    expect(outcome).toEqual(expected);
    // The slug route answers the same.
    const bySlug = await env.gql(
      '{ event_by_slug(slug: "event-draft") { id } }',
      {},
      { as: caller },
    );
    if (privileged(caller)) expect(bySlug.data?.event_by_slug.id).toBe(ids.event.draft);
    else expect(bySlug.errors?.[0]?.extensions?.rest_code).toBe('event-not-accessible');
  });

  it('hides unpublished venues and organizers inside a published event from anonymous callers', async () => {
    const id = await insertEvent(env, {
      title: 'Nested',
      start: '2026-12-06 10:00:00',
      venue_id: ids.venue.draft,
      organizers: [ids.organizer.pending!, ids.organizer.publish!, ids.organizer.trash!],
    });
    const query = `query($id: Int!) { event(id: $id) { venue { id status } organizer { id } } }`;
    const list = `{ events(include: [${id}]) { events { venue { id } organizer { id } } } }`;
    const anonymous = await env.ok(query, { id }, { as: 'anonymous' });
    expect(anonymous.event).toEqual({ venue: null, organizer: [{ id: ids.organizer.publish }] });
    expect((await env.ok(list, {}, { as: 'anonymous' })).events.events).toEqual([
      { venue: null, organizer: [{ id: ids.organizer.publish }] },
    ]);
    for (const caller of ['contributor', 'editor'] as const) {
      const seen = await env.ok(query, { id }, { as: caller });
      // Trashed records never show, not even to editors.
      expect(seen.event).toEqual({
        venue: { id: ids.venue.draft, status: 'draft' },
        organizer: [{ id: ids.organizer.pending }, { id: ids.organizer.publish }],
      });
    }
  });

  it("lists a venue's events as the caller may see them", async () => {
    const venue = await insertVenue(env, { title: 'Shared hall' });
    for (const status of ['publish', 'draft', 'private'] as const) {
      await insertEvent(env, {
        title: `At hall ${status}`,
        status,
        start: '2026-12-07 10:00:00',
        venue_id: venue,
      });
    }
    const query = `{ venue(id: ${venue}) { events { total events { status } } } }`;
    const anonymous = await env.ok(query, {}, { as: 'anonymous' });
    expect(anonymous.venue.events.events).toEqual([{ status: 'publish' }]);
    const editor = await env.ok(query, {}, { as: 'editor' });
    expect(editor.venue.events.total).toBe(3);
  });
});
