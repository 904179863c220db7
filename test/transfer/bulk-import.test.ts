import { BulkImportError } from '../../src/transfer/bulk/batches';
import { bulkImportEvents, type BulkEventRecord } from '../../src/transfer/bulk/import';
import {
  bulkCreateOrganizers,
  bulkCreateTerms,
  bulkCreateVenues,
} from '../../src/transfer/bulk/records';
import { describeEachDb, type TestEnv } from '../support/harness';

/** The bulk path behind seeding, imports and the benchmark datasets. */

const NOW = new Date('2026-11-21T08:00:00Z');

interface Linked {
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
}

let run = 0;

/** Fresh venues, organizers and terms with names unique to this call. */
async function linked(env: TestEnv): Promise<Linked> {
  const tag = `b${++run}`;
  const opts = { now: NOW };
  const venues = await bulkCreateVenues(
    env.db,
    env.config,
    [1, 2, 3].map((n) => ({
      venue: `Hall ${tag} ${n}`,
      city: 'Lyon',
      geo_lat: 45.7,
      geo_lng: 4.8,
    })),
    opts,
  );
  const organizers = await bulkCreateOrganizers(
    env.db,
    env.config,
    [1, 2, 3].map((n) => ({ organizer: `Crew ${tag} ${n}`, email: `crew${n}@example.com` })),
    opts,
  );
  const [root] = await bulkCreateTerms(env.db, 'category', [{ name: `Music ${tag}` }]);
  const children = await bulkCreateTerms(env.db, 'category', [
    { name: `Jazz ${tag}`, parent_id: root },
    { name: `Rock ${tag}`, parent_id: root },
  ]);
  const tags = await bulkCreateTerms(env.db, 'tag', [
    { name: `Free ${tag}` },
    { name: `Kids ${tag}` },
  ]);
  return { venues, organizers, categories: [root!, ...children], tags };
}

function records(l: Linked, count: number, prefix: string): BulkEventRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    title: `${prefix} ${i}`,
    description: `<p>Night ${i}</p><script>alert(1)</script>`,
    start_date: `2027-07-${String((i % 28) + 1).padStart(2, '0')} 20:00:00`,
    end_date: `2027-07-${String((i % 28) + 1).padStart(2, '0')} 23:30:00`,
    timezone: 'Europe/Paris',
    status: i % 10 === 9 ? 'draft' : 'publish',
    venue_id: l.venues[i % 3],
    organizer_ids: [l.organizers[(i + 1) % 3]!, l.organizers[i % 3]!],
    category_ids: [l.categories[1 + (i % 2)]!],
    tag_ids: i % 2 ? [l.tags[0]!, l.tags[1]!] : [],
  }));
}

async function count(env: TestEnv, table: string): Promise<number> {
  const [row] = await env.db(table).count({ n: '*' });
  return Number(row?.n);
}

describeEachDb('bulk import', (env) => {
  it('imports events with their links in several batches, ids and slugs unique', async () => {
    const l = await linked(env);
    const progress: number[] = [];
    const { ids } = await bulkImportEvents(env.db, env.config, records(l, 45, 'Bulk Gig'), {
      batchSize: 20,
      now: NOW,
      onProgress: (done) => progress.push(done),
    });
    expect(progress).toEqual([20, 40, 45]);
    expect(new Set(ids).size).toBe(45);
    const rows = await env.db('events').whereIn('id', ids).orderBy('id');
    expect(rows.map((r) => Number(r.id))).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(rows.map((r) => r.slug)).size).toBe(45);
    // The shared id space knows every new id as an event, none of the venue/organizer ids.
    const types = await env.db('post_ids').whereIn('id', [...ids, ...l.venues, ...l.organizers]);
    const typeOf = new Map(types.map((t) => [Number(t.id), t.type]));
    expect(ids.every((id) => typeOf.get(id) === 'event')).toBe(true);
    expect(l.venues.every((id) => typeOf.get(id) === 'venue')).toBe(true);
    expect(l.organizers.every((id) => typeOf.get(id) === 'organizer')).toBe(true);
    // HTML is sanitised like single writes.
    expect(rows[0].description).toBe('<p>Night 0</p>');

    // Organizer and term links keep the order given.
    const links = await env.db('event_organizers').where({ event_id: ids[0] }).orderBy('position');
    expect(links.map((k) => Number(k.organizer_id))).toEqual([l.organizers[1], l.organizers[0]]);
    const terms = await env.db('event_terms').where({ event_id: ids[1] }).orderBy('position');
    expect(terms.map((t) => Number(t.term_id))).toEqual([l.categories[2], l.tags[0], l.tags[1]]);
  });

  it('reads back through the API like any event', async () => {
    const l = await linked(env);
    const { ids } = await bulkImportEvents(env.db, env.config, records(l, 2, 'Api Gig'), {
      now: NOW,
    });
    const data = await env.ok(
      `query($id: Int!) { event(id: $id) { title slug timezone start_date utc_start_date
         venue { venue city } organizer { organizer } categories { id } tags { id } } }`,
      { id: ids[1] },
    );
    expect(data.event).toMatchObject({
      title: 'Api Gig 1',
      slug: 'api-gig-1',
      timezone: 'Europe/Paris',
      start_date: '2027-07-02 20:00:00',
      utc_start_date: '2027-07-02 18:00:00',
      venue: { venue: expect.stringMatching(/^Hall /), city: 'Lyon' },
      categories: [{ id: l.categories[2] }],
      tags: [{ id: l.tags[0] }, { id: l.tags[1] }],
    });
    expect(data.event.organizer).toHaveLength(2);
  });

  it('computes UTC columns in the event time zone, winter, summer and all-day', async () => {
    const base = { title: 'Tz Gig', timezone: 'America/New_York' };
    const { ids } = await bulkImportEvents(
      env.db,
      env.config,
      [
        { ...base, start_date: '2027-01-15 19:00:00', end_date: '2027-01-15 22:00:00' },
        { ...base, start_date: '2027-07-15 19:00', end_date: '2027-07-15 22:00' },
        { ...base, start_date: '2027-03-01 10:00:00', end_date: '2027-03-02', all_day: true },
        {
          ...base,
          timezone: 'UTC+5:30',
          start_date: '2027-01-15 10:00:00',
          end_date: '2027-01-15 11:00:00',
        },
      ],
      { now: NOW },
    );
    const rows = await env.db('events').whereIn('id', ids).orderBy('id');
    const cols = rows.map((r) => [r.start_date, r.end_date, r.utc_start_date, r.utc_end_date]);
    expect(cols).toEqual([
      ['2027-01-15 19:00:00', '2027-01-15 22:00:00', '2027-01-16 00:00:00', '2027-01-16 03:00:00'],
      ['2027-07-15 19:00:00', '2027-07-15 22:00:00', '2027-07-15 23:00:00', '2027-07-16 02:00:00'],
      ['2027-03-01 00:00:00', '2027-03-02 23:59:59', '2027-03-01 05:00:00', '2027-03-03 04:59:59'],
      ['2027-01-15 10:00:00', '2027-01-15 11:00:00', '2027-01-15 04:30:00', '2027-01-15 05:30:00'],
    ]);
    expect(rows.map((r) => Boolean(r.all_day))).toEqual([false, false, true, false]);
    expect(rows.map((r) => r.slug)).toEqual(['tz-gig', 'tz-gig-2', 'tz-gig-3', 'tz-gig-4']);
  });

  it('keeps slugs unique against stored ones and within a batch', async () => {
    const first = await bulkImportEvents(
      env.db,
      env.config,
      [{ title: 'Same Name', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 11:00:00' }],
      { now: NOW },
    );
    const again = await bulkImportEvents(
      env.db,
      env.config,
      ['Same Name', 'Same Name', 'Other'].map((title, i) => ({
        title,
        slug: i === 2 ? 'same-name' : null,
        start_date: '2027-05-01 10:00:00',
        end_date: '2027-05-01 11:00:00',
      })),
      { now: NOW },
    );
    const slugs = await env
      .db('events')
      .whereIn('id', [...first.ids, ...again.ids])
      .orderBy('id')
      .pluck('slug');
    expect(slugs).toEqual(['same-name', 'same-name-2', 'same-name-3', 'same-name-4']);
  });

  it('refreshes term counts once, counting published events only', async () => {
    const l = await linked(env);
    await bulkImportEvents(env.db, env.config, records(l, 30, 'Count Gig'), {
      batchSize: 7,
      now: NOW,
    });
    // Events i with i % 10 === 9 are drafts (3 of 30); categories alternate; odd i carry tags.
    const counts = await env
      .db('terms')
      .whereIn('id', [...l.categories, ...l.tags])
      .select('id', 'count');
    const countOf = new Map(counts.map((c) => [Number(c.id), Number(c.count)]));
    expect(countOf.get(l.categories[0]!)).toBe(0);
    expect(countOf.get(l.categories[1]!)).toBe(15 - 0); // even i: drafts 9,19,29 are odd
    expect(countOf.get(l.categories[2]!)).toBe(15 - 3);
    expect(countOf.get(l.tags[0]!)).toBe(12);
    expect(countOf.get(l.tags[1]!)).toBe(12);
  });

  it('rolls a failing batch back entirely and keeps the batches before it', async () => {
    const l = await linked(env);
    const input = records(l, 25, 'Broken Gig');
    // An organizer id that does not exist: refused inside the batch's transaction, as an event
    // write refuses it, after earlier batches committed.
    input[15] = { ...input[15]!, organizer_ids: [987654321] };
    const before = { events: await count(env, 'events'), ids: await count(env, 'post_ids') };
    const progress: number[] = [];
    const error = await bulkImportEvents(env.db, env.config, input, {
      batchSize: 10,
      now: NOW,
      onProgress: (done) => progress.push(done),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BulkImportError);
    expect((error as BulkImportError).message).toMatch(/^records 10–19 rolled back/);
    expect((error as BulkImportError).message).toMatch(
      /organizer \(987654321 is not the id of an existing organizer\)$/,
    );
    expect(progress).toEqual([10]);
    expect(await count(env, 'events')).toBe(before.events + 10);
    expect(await count(env, 'post_ids')).toBe(before.ids + 10);
    const stored = await env.db('events').where('title', 'like', 'Broken Gig %').pluck('title');
    expect(stored.sort()).toEqual(
      input
        .slice(0, 10)
        .map((r) => r.title)
        .sort(),
    );
    // The committed batch is counted even though the import stopped.
    const jazz = await env.db('terms').where({ id: l.categories[1] }).first();
    expect(Number(jazz.count)).toBe(5);
  });

  it('rejects an invalid record before writing its batch, naming it', async () => {
    const before = await count(env, 'events');
    const bad = [
      { title: 'Fine', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 11:00:00' },
      { title: 'Bad', start_date: '2027-05-01 10:00:00', end_date: '2027-04-01 11:00:00' },
    ];
    await expect(bulkImportEvents(env.db, env.config, bad, { now: NOW })).rejects.toThrow(
      /^record 1: end_date the end of the event must not be before its start$/,
    );
    const tagAsCategory = [{ ...bad[0]!, category_ids: [(await linked(env)).tags[0]!] }];
    await expect(bulkImportEvents(env.db, env.config, tagAsCategory, { now: NOW })).rejects.toThrow(
      /^record 0: categories unknown categories id\(s\): \d+$/,
    );
    expect(await count(env, 'events')).toBe(before);
  });
});
