import { STAR_RELATIONS } from '../../../src/transfer/parquet/relations';
import { starPage } from '../../../src/transfer/parquet/store/star-pages';
import { describeEachDb, type TestEnv } from '../../support/harness';
import {
  countOf,
  createStarSample,
  daysInRange,
  REPORT_VIEWS,
  STAR_VIEWS,
  type StarSample,
} from './star-support';

/**
 * The star schema of migration 20261121000013 (docs/bi.md "Star schema") on each database: row
 * counts against the tables, key values, dim_date's calendar attributes over a range longer than
 * MariaDB's recursion limit, the example queries of docs/bi.md, keyset pages, and `down`.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const migration = require('../../../migrations/20261121000013_bi_star_schema') as {
  up(db: TestEnv['db']): Promise<void>;
  down(db: TestEnv['db']): Promise<void>;
};

async function viewNames(env: TestEnv): Promise<string[]> {
  const rows: { name: string }[] =
    env.dialect === 'sqlite'
      ? await env.db('sqlite_master').select('name').where({ type: 'view' })
      : await env
          .db('information_schema.views')
          .select({ name: 'table_name' })
          .whereRaw('table_schema = DATABASE()');
  return rows.map((r) => r.name).sort();
}

async function reportEventsSql(env: TestEnv): Promise<string> {
  const row = await env.db('sqlite_master').select('sql').where({ name: 'report_events' }).first();
  return row.sql;
}

/** docs/bi.md: published events per month and venue. */
const PER_MONTH_AND_VENUE = `
  SELECT d.year, d.month, v.name AS venue, COUNT(*) AS events
    FROM fact_event f
    JOIN dim_date d ON d.date_key = f.start_date_key
    LEFT JOIN dim_venue v ON v.venue_id = f.venue_id
   WHERE f.status = 'publish'
   GROUP BY d.year, d.month, v.name
   ORDER BY d.year, d.month, v.name`;

/** docs/bi.md: published events per category. */
const PER_CATEGORY = `
  SELECT t.name AS category, COUNT(*) AS events
    FROM fact_event f
    JOIN bridge_event_term b ON b.event_id = f.event_id
    JOIN dim_term t ON t.term_id = b.term_id AND t.taxonomy = 'category'
   WHERE f.status = 'publish'
   GROUP BY t.name
   ORDER BY t.name`;

const rowsOf = (result: any): any[] => (Array.isArray(result[0]) ? result[0] : result);

describeEachDb('BI star schema', (env) => {
  let s: StarSample;

  beforeAll(async () => {
    s = await createStarSample(env);
  });

  it('has the six star relations and the bridge of organizers, with the right row counts', async () => {
    expect(await viewNames(env)).toEqual([...STAR_VIEWS, ...REPORT_VIEWS].sort());
    const events = await countOf(env, 'events');
    expect(events).toBe(8);
    expect(await countOf(env, 'fact_event')).toBe(events);
    expect(await countOf(env, 'dim_venue')).toBe(await countOf(env, 'venues'));
    expect(await countOf(env, 'dim_organizer')).toBe(await countOf(env, 'organizers'));
    expect(await countOf(env, 'dim_term')).toBe(await countOf(env, 'terms'));
    expect(await countOf(env, 'bridge_event_term')).toBe(await countOf(env, 'event_terms'));
    expect(await countOf(env, 'bridge_event_organizer')).toBe(
      await countOf(env, 'event_organizers'),
    );
    // 2027-01-01 (the trashed event) to 2031-06-03 (the far one): past 1,000 days.
    const days = await daysInRange(env);
    expect(days).toBe(1615);
    expect(await countOf(env, 'dim_date')).toBe(days);
    const distinct = await env.db('dim_date').countDistinct({ n: 'date_key' }).first();
    expect(Number(distinct!.n)).toBe(days);
  });

  it('fact_event: every status, with keys into the dimensions', async () => {
    const facts = await env.db('fact_event').select('*').orderBy('event_id');
    expect(facts.map((f) => f.status).sort()).toEqual([
      'draft',
      'pending',
      'private',
      'publish',
      'publish',
      'publish',
      'publish',
      'trash',
    ]);
    const jazz = facts.find((f) => Number(f.event_id) === s.jazz.id);
    expect(jazz).toMatchObject({
      title: 'Jazz Night',
      start_date: '2027-03-10 19:00:00',
      utc_start_date: '2027-03-11 00:00:00',
      timezone: 'America/New_York',
    });
    expect(
      [
        'start_date_key',
        'end_date_key',
        'duration_minutes',
        'organizer_count',
        'category_count',
        'tag_count',
      ].map((k) => Number(jazz[k])),
    ).toEqual([20270310, 20270310, 210, 2, 2, 2]);
    const venue = await env.db('dim_venue').where({ venue_id: jazz.venue_id }).first();
    expect(venue).toMatchObject({ name: 'Main Hall', city: 'Springfield', stateprovince: 'IL' });
    const lead = await env.db('dim_organizer').where({ organizer_id: jazz.organizer_id }).first();
    expect(lead).toMatchObject({ name: 'Acme Org', email: 'org@example.com' });
    const organizers = await env
      .db('bridge_event_organizer as b')
      .join('dim_organizer as o', 'o.organizer_id', 'b.organizer_id')
      .where('b.event_id', s.jazz.id)
      .orderBy('b.position')
      .pluck('o.name');
    expect(organizers).toEqual(['Acme Org', 'Second Crew']);
    const party = facts.find((f) => Number(f.event_id) === s.privateEvent);
    expect([Number(party.start_date_key), Number(party.end_date_key)]).toEqual([
      20271231, 20280101,
    ]);
    const fair = facts.find((f) => Number(f.event_id) === s.fair.id);
    expect(fair.venue_id).toBeNull();
    expect(Number(fair.all_day)).toBe(1);
    const trashed = facts.find((f) => Number(f.event_id) === s.trashed);
    expect(trashed.status).toBe('trash');
  });

  it('bridge_event_term: one row per link, with its taxonomy and position', async () => {
    const links = await env
      .db('bridge_event_term as b')
      .join('dim_term as t', 't.term_id', 'b.term_id')
      .where('b.event_id', s.jazz.id)
      .orderBy(['b.taxonomy', 'b.position'])
      .select('b.taxonomy', 't.name');
    expect(links.map((l) => [l.taxonomy, l.name])).toEqual([
      ['category', 'Concerts'],
      ['category', 'Music, Live'],
      ['tag', 'jazz'],
      ['tag', 'late night'],
    ]);
  });

  it('dim_date: one row per day of the range with its calendar attributes', async () => {
    const first = await env.db('dim_date').orderBy('date_key').first();
    const last = await env.db('dim_date').orderBy('date_key', 'desc').first();
    expect([first.date, last.date]).toEqual(['2027-01-01', '2031-06-03']);
    const pick = async (key: number) => {
      const row = await env.db('dim_date').where({ date_key: key }).first();
      return [
        row.date,
        ...['year', 'quarter', 'month', 'day', 'day_of_week', 'day_of_year'].map((k) =>
          Number(row[k]),
        ),
        row.month_key,
        Number(row.iso_year),
        Number(row.iso_week),
        Number(row.is_weekend),
      ];
    };
    // A Wednesday; a Saturday in ISO week 52 of the year before; a leap day (a Tuesday).
    expect(await pick(20270310)).toEqual([
      '2027-03-10',
      2027,
      1,
      3,
      10,
      3,
      69,
      '2027-03',
      2027,
      10,
      0,
    ]);
    expect(await pick(20280101)).toEqual([
      '2028-01-01',
      2028,
      1,
      1,
      1,
      6,
      1,
      '2028-01',
      2027,
      52,
      1,
    ]);
    expect(await pick(20280229)).toEqual([
      '2028-02-29',
      2028,
      1,
      2,
      29,
      2,
      60,
      '2028-02',
      2028,
      9,
      0,
    ]);
  });

  it("answers docs/bi.md's example queries", async () => {
    const perMonth = rowsOf(await env.db.raw(PER_MONTH_AND_VENUE));
    expect(
      perMonth.map((r) => [Number(r.year), Number(r.month), r.venue, Number(r.events)]),
    ).toEqual([
      [2027, 1, 'Main Hall', 1],
      [2027, 2, 'Main Hall', 1],
      [2027, 3, 'Main Hall', 1],
      [2031, 6, 'Riverside', 1],
    ]);
    const perCategory = rowsOf(await env.db.raw(PER_CATEGORY));
    expect(perCategory.map((r) => [r.category, Number(r.events)])).toEqual([
      ['Concerts', 2],
      ['Markets', 1],
      ['Music, Live', 1],
    ]);
  });

  it('pages every relation by its key: each row once, in key order (the Parquet reads)', async () => {
    for (const relation of STAR_RELATIONS) {
      const all = await env
        .db(relation.name)
        .select(Object.keys(relation.columns))
        .orderBy(relation.key.map((column) => ({ column })));
      const paged: Record<string, unknown>[] = [];
      let after: unknown[] | null = null;
      let pages = 0;
      // Small pages, several per relation (dim_date's 1,615 days in bigger ones).
      const size = relation.name === 'dim_date' ? 200 : 3;
      for (;;) {
        const page = await starPage(env.db, relation, after, size);
        paged.push(...page);
        pages++;
        if (page.length < size) break;
        const last = page[page.length - 1]!;
        after = relation.key.map((k) => last[k]);
      }
      expect({ relation: relation.name, rows: paged }).toEqual({
        relation: relation.name,
        rows: all,
      });
      expect(pages).toBe(Math.floor(all.length / size) + 1);
    }
  });

  it('down drops the star and restores the previous report views; up recreates them', async () => {
    const before = await countOf(env, 'report_events');
    await migration.down(env.db);
    expect(await viewNames(env)).toEqual([...REPORT_VIEWS].sort());
    if (env.dialect === 'sqlite') {
      expect(await reportEventsSql(env)).toContain(
        "group_concat(t.name, '; ' ORDER BY et.position)",
      );
    }
    await migration.up(env.db);
    expect(await viewNames(env)).toEqual([...STAR_VIEWS, ...REPORT_VIEWS].sort());
    if (env.dialect === 'sqlite') expect(await reportEventsSql(env)).toContain('OVER (ORDER BY');
    expect(await countOf(env, 'report_events')).toBe(before);
    expect(await countOf(env, 'fact_event')).toBe(8);
  });
});
