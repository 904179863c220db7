import { describeEachDb } from '../../support/harness';
import {
  insertEvent,
  insertOrganizer,
  insertTerm,
  insertVenue,
  resetCalendar,
} from '../../support/event-fixtures';
import { RestClient } from '../../support/rest/rest-client';

/**
 * `event_counts` (issue 20, item 5): it counts what the events list with the same filters shows
 * the caller, month by month, in one SQL statement, bucketing each event by its own local start.
 */

const COUNTS = `query ($group: EventCountGroup!, $categories: [String!], $start: String, $end: String) {
  event_counts(group_by: $group, categories: $categories, start_date: $start, end_date: $end) {
    key label count
  }
}`;

describeEachDb('event_counts', (env) => {
  let concerts: number;
  let hall: number;
  let cellar: number;

  beforeAll(async () => {
    await resetCalendar(env);
    hall = await insertVenue(env, { title: 'Main Hall' });
    cellar = await insertVenue(env, { title: 'Secret Cellar', status: 'draft' });
    const org = await insertOrganizer(env, { title: 'Jazz Society' });
    concerts = await insertTerm(env, 'category', 'Concerts');
    const talks = await insertTerm(env, 'category', 'Talks');
    const months = ['2026-12', '2027-01', '2027-02'];
    for (let i = 0; i < 40; i++) {
      const month = months[i % 3]!;
      const day = String(1 + (i % 27)).padStart(2, '0');
      await insertEvent(env, {
        title: `Event ${i}`,
        start: `${month}-${day} 20:00:00`,
        timezone: 'Europe/Paris',
        venue_id: i % 4 === 0 ? cellar : i % 4 === 1 ? null : hall,
        organizers: i % 2 ? [org] : [],
        categories: i % 5 === 0 ? [talks] : [concerts],
      });
    }
    // Late on the last day of the month in New York: already the 1st in UTC, still the 31st
    // on the wall clock of the event, which is what the list's date filters compare.
    await insertEvent(env, {
      title: 'New Year’s Eve',
      start: '2026-12-31 22:30:00',
      timezone: 'America/New_York',
      categories: [concerts],
    });
    await insertEvent(env, {
      title: 'Draft',
      status: 'draft',
      start: '2026-12-05 10:00:00',
      categories: [concerts],
    });
  });

  it('sums, month by month, to the REST list’s total with the same filters', async () => {
    const rest = new RestClient(env);
    const { event_counts: months } = await env.ok(COUNTS, {
      group: 'MONTH',
      categories: ['concerts'],
    });
    expect(months.map((m: { key: string }) => m.key)).toEqual(['2026-12', '2027-01', '2027-02']);
    expect(months[0].label).toBe('December 2026');
    const all = await rest.request('GET', '/events?categories=concerts&per_page=1');
    expect(months.reduce((sum: number, m: { count: number }) => sum + m.count, 0)).toBe(
      Number(all.headers.get('x-wp-total')),
    );
    for (const month of months as { key: string; count: number }[]) {
      const [y, m] = month.key.split('-').map(Number) as [number, number];
      const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
      const listed = await rest.request(
        'GET',
        `/events?categories=concerts&per_page=1&start_date=${month.key}-01&end_date=${month.key}-${last}`,
      );
      expect(listed.status).toBe(200);
      expect(listed.body.total).toBe(month.count);
    }
    // The editor also sees the draft, in December.
    const editor = await env.ok(
      COUNTS,
      { group: 'MONTH', categories: ['concerts'] },
      { as: 'editor' },
    );
    expect(editor.event_counts[0].count).toBe(months[0].count + 1);
  });

  it('groups by day and ISO week on the events’ own wall clock', async () => {
    const days = (await env.ok(COUNTS, { group: 'DAY', start: '2026-12-31', end: '2026-12-31' }))
      .event_counts;
    expect(days).toEqual([{ key: '2026-12-31', label: 'Thursday 31 December 2026', count: 1 }]);
    const weeks = (await env.ok(COUNTS, { group: 'WEEK', start: '2026-12-28', end: '2027-01-03' }))
      .event_counts;
    // 2026-12-28 is a Monday: the 31st and the events of 1–3 January share its week.
    expect(weeks.map((w: { key: string }) => w.key)).toEqual(['2026-12-28']);
  });

  it('groups by venue, organizer and category as the list shows them to the caller', async () => {
    const total = (await env.ok(`{ events(per_page: 1) { total } }`)).events.total;
    const venues = (await env.ok(COUNTS, { group: 'VENUE' })).event_counts;
    // The draft venue is hidden from anonymous callers: its events count as without a venue.
    expect(venues.map((v: { label: string }) => v.label)).not.toContain('Secret Cellar');
    expect(venues.find((v: { key: string }) => v.key === String(hall))?.count).toBe(20);
    expect(venues.find((v: { key: string }) => v.key === 'none')?.label).toBe('No venue');
    expect(venues.reduce((s: number, v: { count: number }) => s + v.count, 0)).toBe(total);
    const editorVenues = (await env.ok(COUNTS, { group: 'VENUE' }, { as: 'editor' })).event_counts;
    expect(editorVenues.find((v: { key: string }) => v.key === String(cellar))?.count).toBe(10);
    const organizers = (await env.ok(COUNTS, { group: 'ORGANIZER' })).event_counts;
    expect(organizers).toEqual([
      { key: 'none', label: 'No organizer', count: 21 },
      { key: expect.any(String), label: 'Jazz Society', count: 20 },
    ]);
    const categories = (await env.ok(COUNTS, { group: 'CATEGORY' })).event_counts;
    expect(categories.map((c: { label: string; count: number }) => [c.label, c.count])).toEqual([
      ['Concerts', 33],
      ['Talks', 8],
    ]);
    expect((await env.ok(COUNTS, { group: 'TAG' })).event_counts).toEqual([
      { key: 'none', label: 'No tag', count: 41 },
    ]);
  });

  it('answers with one SQL statement once the filter is resolved', async () => {
    const statements = await env.countQueries(() => env.ok(COUNTS, { group: 'MONTH' }));
    // No term or reference to resolve: the GROUP BY alone.
    expect(statements).toBe(1);
  });

  it('refuses the list’s bad arguments the same way', async () => {
    const result = await env.gql(COUNTS, { group: 'MONTH', categories: ['no-such-category'] });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
