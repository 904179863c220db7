import { describeEachDb } from '../support/harness';
import { createSample, type Sample } from './import-support';

/** The reporting views for BI tools (docs/bi.md "Reporting views"), queried with Knex. */

describeEachDb('reporting views', (env) => {
  let sample: Sample;

  beforeAll(async () => {
    sample = await createSample(env);
    // A child category, and a trashed event that the views leave out.
    const parent = await env.db('terms').where({ taxonomy: 'category', name: 'Concerts' }).first();
    await env.ok(
      'mutation ($input: CategoryInput!) { create_category(input: $input) { id } }',
      { input: { name: 'Chamber', parent: Number(parent.id) } },
      { as: 'administrator' },
    );
    const trashed = await env.ok(
      'mutation ($input: EventInput!) { create_event(input: $input) { id } }',
      { input: { title: 'Gone', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00' } },
      { as: 'administrator' },
    );
    await env.ok('mutation ($id: Int!) { delete_event(id: $id) { id } }', trashed.create_event, {
      as: 'administrator',
    });
  });

  it('report_events: one row per event with venue, organizers and terms flattened', async () => {
    const rows = await env.db('report_events').select('*').orderBy('id');
    expect(rows.map((r) => r.title)).toEqual([
      'Jazz Night',
      'Summer Fair',
      'Offset Talk',
      'Secret Gig',
    ]);
    const jazz = rows.find((r) => r.id === sample.jazz.id);
    expect(jazz).toMatchObject({
      slug: 'jazz-night',
      status: 'publish',
      start_date: '2027-03-10 19:00:00',
      utc_start_date: '2027-03-11 00:00:00',
      timezone: 'America/New_York',
      cost: '10, 20, 30',
      author_login: 'admin',
      venue_name: 'Main Hall',
      venue_city: 'Springfield',
      venue_stateprovince: 'IL',
      venue_country: 'United States',
      organizer_names: 'Acme Org; Second Crew',
      category_names: 'Concerts; Music, Live',
      tag_names: 'jazz; late night',
    });
    expect(Number(jazz.organizer_count)).toBe(2);
    expect(Number(jazz.venue_geo_lat)).toBeCloseTo(39.7817, 6);
    expect(Boolean(Number(jazz.featured))).toBe(true);
    const fair = rows.find((r) => r.id === sample.fair.id);
    expect(fair).toMatchObject({ status: 'draft', venue_name: null, organizer_names: null });
    expect(Boolean(Number(fair.all_day))).toBe(true);
  });

  it('report_venues and report_organizers count published events', async () => {
    const venues = await env.db('report_venues').select('*');
    expect(venues).toHaveLength(1);
    expect(venues[0]).toMatchObject({ name: 'Main Hall', city: 'Springfield' });
    // Jazz Night, Offset Talk and Secret Gig are published there.
    expect(Number(venues[0].published_events)).toBe(3);
    const organizers = await env.db('report_organizers').select('*').orderBy('name');
    expect(organizers.map((o) => [o.name, o.email, Number(o.published_events)])).toEqual([
      ['Acme Org', 'org@example.com', 2],
      ['Second Crew', '', 1],
    ]);
  });

  it('report_terms lists categories and tags with their parent and counts', async () => {
    const terms = await env.db('report_terms').select('*').orderBy(['taxonomy', 'name']);
    expect(
      terms.map((t) => [t.taxonomy, t.name, t.parent_name, Number(t.published_events)]),
    ).toEqual([
      ['category', 'Chamber', 'Concerts', 0],
      ['category', 'Concerts', null, 2],
      ['category', 'Markets', null, 0],
      ['category', 'Music, Live', null, 1],
      ['tag', 'jazz', null, 2],
      ['tag', 'late night', null, 1],
    ]);
  });
});
