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

const NS = 'http://calendar.test/wp-json/calendar/events/v1';
const DETAILS = 'year month day hour minutes seconds';
const FIELDS = `id global_id global_id_lineage author status date date_utc modified modified_utc
  url rest_url title description excerpt slug image { url id extension width height }
  all_day start_date start_date_details { ${DETAILS} } end_date end_date_details { ${DETAILS} }
  utc_start_date utc_start_date_details { ${DETAILS} } utc_end_date
  utc_end_date_details { ${DETAILS} } timezone timezone_abbr cost
  cost_details { currency_symbol currency_code currency_position values } website
  show_map show_map_link hide_from_listings sticky featured
  categories { id slug } tags { id slug } venue { id } organizer { id } post_parent parent { id }`;
const READ = `query($id: Int!) { event(id: $id) { ${FIELDS} } }`;

describeEachDb('event fields', (env) => {
  beforeEach(() => resetCalendar(env));

  it('resolves every field of docs/contract.md §4 (Event)', async () => {
    const image = await insertImage(env, 'https://img.example/poster.jpg');
    const cat = await insertTerm(env, 'category', 'Concerts');
    const tag = await insertTerm(env, 'tag', 'Jazz');
    const venue = await insertVenue(env);
    const org = await insertOrganizer(env);
    const parent = await insertEvent(env, { title: 'Series', start: '2027-03-01 10:00:00' });
    const id = await insertEvent(env, {
      title: 'Jazz Night',
      slug: 'jazz-night',
      start: '2027-03-10 19:00:00',
      end: '2027-03-10 22:30:00',
      timezone: 'Europe/Paris',
      description: '<p>An evening of jazz.</p>',
      excerpt: '<p>Jazz!</p>',
      cost: '15',
      featured: true,
      show_map: true,
      image_id: image,
      categories: [cat],
      tags: [tag],
      venue_id: venue,
      organizers: [org],
      parent_id: parent,
    });
    const { event } = await env.ok(READ, { id });
    expect(event).toEqual({
      id,
      global_id: `calendar.test?id=${id}`,
      global_id_lineage: [`calendar.test?id=${id}`],
      author: '1',
      status: 'publish',
      date: '2026-11-01 10:00:00',
      date_utc: '2026-11-01 10:00:00',
      modified: '2026-11-01 10:00:00',
      modified_utc: '2026-11-01 10:00:00',
      url: 'http://calendar.test/event/jazz-night/',
      rest_url: `${NS}/events/${id}`,
      title: 'Jazz Night',
      description: '<p>An evening of jazz.</p>',
      excerpt: '<p>Jazz!</p>',
      slug: 'jazz-night',
      image: {
        url: 'https://img.example/poster.jpg',
        id: image,
        extension: 'jpg',
        width: 800,
        height: 600,
      },
      all_day: false,
      start_date: '2027-03-10 19:00:00',
      start_date_details: {
        year: '2027',
        month: '03',
        day: '10',
        hour: '19',
        minutes: '00',
        seconds: '00',
      },
      end_date: '2027-03-10 22:30:00',
      end_date_details: {
        year: '2027',
        month: '03',
        day: '10',
        hour: '22',
        minutes: '30',
        seconds: '00',
      },
      utc_start_date: '2027-03-10 18:00:00',
      utc_start_date_details: {
        year: '2027',
        month: '03',
        day: '10',
        hour: '18',
        minutes: '00',
        seconds: '00',
      },
      utc_end_date: '2027-03-10 21:30:00',
      utc_end_date_details: {
        year: '2027',
        month: '03',
        day: '10',
        hour: '21',
        minutes: '30',
        seconds: '00',
      },
      timezone: 'Europe/Paris',
      timezone_abbr: 'CET',
      cost: '$15',
      cost_details: {
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'prefix',
        values: ['15'],
      },
      website: 'http://calendar.test/event/jazz-night/',
      show_map: true,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: true,
      categories: [{ id: cat, slug: 'concerts' }],
      tags: [{ id: tag, slug: 'jazz' }],
      venue: { id: venue },
      organizer: [{ id: org }],
      post_parent: parent,
      parent: { id: parent },
    });
  });

  it('formats costs from the text, the stored currency or the site default', async () => {
    const costs: [Record<string, string>, string, string[]][] = [
      [{ cost: '20$' }, '20$', ['20']],
      [{ cost: '0, 20$, 30$' }, 'Free – 30$', ['0', '20', '30']],
      [{ cost: 'Free' }, 'Free', ['free']],
      [{ cost: '12', currency_symbol: '€', currency_position: 'postfix' }, '12€', ['12']],
      [{ cost: '' }, '', []],
    ];
    for (const [i, [fx]] of costs.entries()) {
      await insertEvent(env, { title: `c${i}`, start: `2026-12-0${i + 1} 10:00:00`, ...fx });
    }
    const list = await listEvents(env, {}, { fields: 'cost cost_details { values }' });
    expect(list.events.map((e) => [e.cost, e.cost_details.values])).toEqual(
      costs.map(([, cost, values]) => [cost, values]),
    );
  });

  it('keeps a stored website and shows the event url when there is none', async () => {
    await insertEvent(env, {
      title: 'a',
      slug: 'a',
      start: '2026-12-01 10:00:00',
      website: 'https://a.example',
    });
    await insertEvent(env, { title: 'b', slug: 'b', start: '2026-12-02 10:00:00' });
    const list = await listEvents(env, {}, { fields: 'website image { url }' });
    expect(list.events).toEqual([
      { website: 'https://a.example', image: null },
      { website: 'http://calendar.test/event/b/', image: null },
    ]);
  });
});
