import { DEFAULT_NOW, describeEachDb } from '../../support/harness';
import {
  DELETE,
  DELETE_BY_SLUG,
  createEvent,
  eventRow,
  linksOf,
  minimal,
  rejected,
  seedOrganizer,
  seedVenue,
  storedEvent,
  type EventOut,
} from './event-write-support';

describeEachDb('delete_event', (env) => {
  afterEach(() => {
    env.now = DEFAULT_NOW;
  });

  async function remove(id: number, force?: boolean): Promise<EventOut> {
    const data = await env.ok<{ delete_event: EventOut }>(
      DELETE,
      { id, force },
      { as: 'administrator' },
    );
    return data.delete_event;
  }

  it('moves the event to the trash and answers it', async () => {
    const event = await createEvent(env, minimal());
    const before = await storedEvent(env, event.id);
    env.now = new Date('2026-11-23T09:30:00Z');
    const out = await remove(event.id);
    expect(out).toMatchObject({ id: event.id, status: 'trash', slug: event.slug });
    expect(await storedEvent(env, event.id)).toEqual({
      ...before,
      status: 'trash',
      modified: '2026-11-23 09:30:00',
      modified_utc: '2026-11-23 09:30:00',
    });
  });

  it('answers 410 for a trashed event, changing nothing', async () => {
    const { id } = await createEvent(env, minimal());
    await remove(id);
    const ext = await rejected(env, DELETE, { id });
    expect(ext).toMatchObject({ code: 'GONE', rest_code: 'event-is-in-trash' });
    const bySlug = await rejected(env, DELETE_BY_SLUG, { slug: (await storedEvent(env, id)).slug });
    expect(bySlug.rest_code).toBe('event-is-in-trash');
  });

  it('deletes for good with force, links included, answering the row as it was', async () => {
    const parent = await createEvent(env, minimal());
    const child = await createEvent(env, minimal({ post_parent: parent.id }));
    const venue = await seedVenue(env);
    const organizer = await seedOrganizer(env);
    await env.db('events').where({ id: parent.id }).update({ venue_id: venue });
    await env
      .db('event_organizers')
      .insert({ event_id: parent.id, organizer_id: organizer, position: 0 });
    const out = await remove(parent.id, true);
    expect(out).toEqual(parent);
    expect(await eventRow(env, parent.id)).toBeUndefined();
    expect(await env.db('post_ids').where({ id: parent.id })).toEqual([]);
    expect(await linksOf(env, parent.id)).toEqual({ organizers: [], terms: [] });
    // The venue and organizer themselves stay; the child loses its parent.
    expect(await env.db('venues').where({ id: venue })).toHaveLength(1);
    expect(await env.db('organizers').where({ id: organizer })).toHaveLength(1);
    expect((await storedEvent(env, child.id)).parent_id).toBeNull();
  });

  it('deletes a trashed event for good with force', async () => {
    const { id } = await createEvent(env, minimal());
    await remove(id);
    const out = await remove(id, true);
    expect(out).toMatchObject({ id, status: 'trash' });
    expect(await eventRow(env, id)).toBeUndefined();
  });

  it('deletes by slug', async () => {
    const { id, slug } = await createEvent(env, minimal());
    const data = await env.ok(DELETE_BY_SLUG, { slug }, { as: 'administrator' });
    expect(data.delete_event_by_slug).toMatchObject({ id, status: 'trash' });
    await env.ok(DELETE_BY_SLUG, { slug, force: true }, { as: 'administrator' });
    expect(await eventRow(env, id)).toBeUndefined();
  });

  it('answers 404 for an unknown id or slug, changing nothing', async () => {
    const byId = await rejected(env, DELETE, { id: 987654 });
    expect(byId).toMatchObject({ code: 'NOT_FOUND', rest_code: 'rest-event-not-found' });
    const bySlug = await rejected(env, DELETE_BY_SLUG, { slug: 'no-such-event', force: true });
    expect(bySlug).toMatchObject({ code: 'NOT_FOUND', rest_code: 'rest-event-not-found' });
  });

  it('lets contributors delete only their own unpublished events', async () => {
    const others = await createEvent(env, minimal({ status: 'draft' }));
    const ext = await rejected(env, DELETE, { id: others.id }, 'contributor');
    expect(ext).toMatchObject({ code: 'FORBIDDEN', rest_code: 'rest_forbidden' });
    const own = await createEvent(env, minimal(), 'contributor');
    const data = await env.ok(DELETE, { id: own.id }, { as: 'contributor' });
    expect(data.delete_event.status).toBe('trash');
  });
});
