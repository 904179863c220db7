import { describeEachDb } from '../support/harness';
import {
  insertEvent,
  insertImage,
  insertOrganizer,
  insertTerm,
  insertVenue,
  listEvents,
  resetCalendar,
} from '../support/event-fixtures';

describeEachDb('event fields: what each caller may see', (env) => {
  beforeEach(() => resetCalendar(env));

  it('hides trashed and, from anonymous callers, unpublished venues, organizers and parents', async () => {
    const trashedVenue = await insertVenue(env, { status: 'trash' });
    const draftVenue = await insertVenue(env, { status: 'draft' });
    const live = await insertOrganizer(env);
    const draftOrg = await insertOrganizer(env, { status: 'draft' });
    const trashedOrg = await insertOrganizer(env, { status: 'trash' });
    const draftParent = await insertEvent(env, {
      title: 'p',
      start: '2026-12-01 10:00:00',
      status: 'draft',
    });
    const organizers = [draftOrg, live, trashedOrg];
    await insertEvent(env, {
      title: 'a',
      start: '2026-12-02 10:00:00',
      venue_id: trashedVenue,
      organizers,
    });
    await insertEvent(env, {
      title: 'b',
      start: '2026-12-03 10:00:00',
      venue_id: draftVenue,
      parent_id: draftParent,
    });
    const fields = 'title venue { id } organizer { id } post_parent parent { id }';
    const anonymous = await listEvents(env, {}, { fields });
    expect(anonymous.events).toEqual([
      { title: 'a', venue: null, organizer: [{ id: live }], post_parent: null, parent: null },
      { title: 'b', venue: null, organizer: [], post_parent: draftParent, parent: null },
    ]);
    const editor = await listEvents(env, {}, { fields, as: 'editor' });
    expect(editor.events.slice(1)).toEqual([
      {
        title: 'a',
        venue: null,
        organizer: [{ id: draftOrg }, { id: live }],
        post_parent: null,
        parent: null,
      },
      {
        title: 'b',
        venue: { id: draftVenue },
        organizer: [],
        post_parent: draftParent,
        parent: { id: draftParent },
      },
    ]);
  });

  it('redacts password-protected events in lists unless the caller may edit them', async () => {
    const cat = await insertTerm(env, 'category', 'C');
    const venue = await insertVenue(env);
    const org = await insertOrganizer(env);
    const image = await insertImage(env, 'https://img.example/x.png');
    await insertEvent(env, {
      title: 'Locked',
      slug: 'locked',
      start: '2026-12-01 10:00:00',
      password: 'pw',
      description: '<p>secret</p>',
      excerpt: '<p>s</p>',
      cost: '$5',
      website: 'https://locked.example',
      image_id: image,
      categories: [cat],
      venue_id: venue,
      organizers: [org],
    });
    const fields = `title start_date url description excerpt cost cost_details { currency_symbol values }
      website image { id } all_day show_map show_map_link hide_from_listings sticky featured
      categories { id } tags { id } venue { id } organizer { id }`;
    const [redacted] = (await listEvents(env, {}, { fields })).events;
    expect(redacted).toEqual({
      title: 'Locked',
      start_date: '2026-12-01 10:00:00',
      url: 'http://calendar.test/event/locked/',
      description: '',
      excerpt: '',
      cost: '',
      cost_details: { currency_symbol: '', values: [] },
      website: '',
      image: null,
      all_day: null,
      show_map: null,
      show_map_link: null,
      hide_from_listings: null,
      sticky: null,
      featured: null,
      categories: [],
      tags: [],
      venue: null,
      organizer: [],
    });
    const [full] = (await listEvents(env, {}, { fields, as: 'editor' })).events;
    expect(full).toMatchObject({
      description: '<p>secret</p>',
      cost: '$5',
      image: { id: image },
      venue: { id: venue },
      featured: false,
    });
  });
});
