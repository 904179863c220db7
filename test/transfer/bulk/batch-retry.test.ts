import { createDb, type Db } from '../../../src/db';
import { bulkImportEvents, type BulkEventRecord } from '../../../src/transfer/bulk/import';
import {
  bulkCreateOrganizers,
  bulkCreateTerms,
  bulkCreateVenues,
} from '../../../src/transfer/bulk/records';
import { lockWaits } from '../../db/lock-waits';
import { describeEachDb, queriesOn, type TestEnv } from '../../support/harness';

/**
 * A bulk batch that loses a race is rolled back and run again whole (`inBatch` through
 * `transact`), and the import's result is exact: every record once, with its links, ids and
 * slugs, progress reported per committed batch, nothing left of the run that lost.
 */

const NOW = new Date('2026-11-21T08:00:00Z');

interface Linked {
  venue: number;
  organizers: number[];
  category: number;
  tag: number;
}

async function linked(env: TestEnv, tag: string): Promise<Linked> {
  const opts = { now: NOW };
  const [venue] = await bulkCreateVenues(env.db, env.config, [{ venue: `Hall ${tag}` }], opts);
  const organizers = await bulkCreateOrganizers(
    env.db,
    env.config,
    [1, 2].map((n) => ({ organizer: `Crew ${tag} ${n}` })),
    opts,
  );
  const [category] = await bulkCreateTerms(env.db, 'category', [{ name: `Music ${tag}` }]);
  const [tagId] = await bulkCreateTerms(env.db, 'tag', [{ name: `Free ${tag}` }]);
  return { venue: venue!, organizers, category: category!, tag: tagId! };
}

function records(l: Linked, count: number, prefix: string): BulkEventRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    title: `${prefix} ${i}`,
    start_date: `2027-07-${String(i + 1).padStart(2, '0')} 20:00:00`,
    end_date: `2027-07-${String(i + 1).padStart(2, '0')} 23:00:00`,
    timezone: 'Europe/Paris',
    venue_id: l.venue,
    organizer_ids: l.organizers,
    category_ids: [l.category],
    tag_ids: i % 2 ? [l.tag] : [],
  }));
}

async function count(q: Db, table: string, where: Record<string, unknown> = {}): Promise<number> {
  return Number((await q(table).where(where).count({ n: '*' }))[0]!.n);
}

/** The slugs of these events, in id order. */
async function slugsOf(env: TestEnv, ids: readonly number[]): Promise<string[]> {
  const rows = await env.db('events').whereIn('id', ids).orderBy('id').select('slug');
  return rows.map((r) => r.slug as string);
}

/** Counts the statements that insert into `table` on `db` while `fn` runs. */
async function insertsInto<T>(db: Db, table: string, fn: () => Promise<T>): Promise<[T, number]> {
  const [result, sent] = await queriesOn(db, fn);
  return [result, sent.filter((q) => q.sql.startsWith(`insert into \`${table}\``)).length];
}

describeEachDb('bulk batches that lose a race', (env) => {
  it('a batch whose first run hits a duplicate key is run again: the import is exact', async () => {
    const l = await linked(env, 'dup');
    const eventsBefore = await count(env.db, 'events');
    const runs = new Map<number, number>();
    const progress: number[] = [];
    const { ids } = await bulkImportEvents(env.db, env.config, records(l, 12, 'Dup Gig'), {
      batchSize: 5,
      now: NOW,
      onProgress: (done) => progress.push(done),
      afterBatch: async (trx, batchIds, offset) => {
        runs.set(offset, (runs.get(offset) ?? 0) + 1);
        // The second batch's first run: a conflicting insert, as a racer's would be — the id
        // its own first event holds. The database refuses it; the batch rolls back whole.
        if (offset === 5 && runs.get(offset) === 1) {
          await trx('post_ids').insert({ id: batchIds[0], type: 'event' });
        }
      },
    });
    expect([...runs]).toEqual([
      [0, 1],
      [5, 2],
      [10, 1],
    ]);
    // Progress counts committed batches only: the run that lost is not counted twice.
    expect(progress).toEqual([5, 10, 12]);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(await count(env.db, 'events')).toBe(eventsBefore + 12);
    // Nothing of the rolled-back run stays: no id it took, no slug (none had to take a suffix).
    expect(await count(env.db, 'post_ids', { type: 'event' })).toBe(eventsBefore + 12);
    expect(await slugsOf(env, ids)).toEqual(ids.map((_, i) => `dup-gig-${i}`));
    // Links once each, and term counts from the committed links.
    expect(await count(env.db, 'event_organizers')).toBe(2 * 12);
    const category = await env.db('terms').where({ id: l.category }).first();
    const tag = await env.db('terms').where({ id: l.tag }).first();
    expect([Number(category.count), Number(tag.count)]).toEqual([12, 6]);
  });

  it('a batch that fails for a reason of its own is not run again', async () => {
    const l = await linked(env, 'bad');
    let runs = 0;
    await expect(
      bulkImportEvents(env.db, env.config, records(l, 3, 'Bad Gig'), {
        now: NOW,
        afterBatch: async () => {
          runs++;
          throw new Error('an importer bug');
        },
      }),
    ).rejects.toThrow(/records 0–2 rolled back: an importer bug/);
    expect(runs).toBe(1);
    expect(await count(env.db, 'events', { venue_id: l.venue })).toBe(0);
  });

  describe('MySQL: another connection holds the slug a batch inserts', () => {
    let other: Db;
    beforeAll(async () => {
      if (env.dialect === 'mysql') other = createDb({ databaseUrl: env.config.databaseUrl });
    });
    afterAll(async () => {
      await other?.destroy();
    });

    it('events: the batch waits, meets the committed slug, runs again with the next suffix', async () => {
      if (env.dialect !== 'mysql') return; // SQLite has one writer: no concurrent transaction.
      const l = await linked(env, 'race');
      // A racer imports "Race Gig 3" and has not committed yet.
      const racer = await other.transaction();
      let raced: number[];
      let imported: Promise<[{ ids: number[] }, number]>;
      const progress: number[] = [];
      try {
        raced = (await bulkImportEvents(racer, env.config, records(l, 4, 'Race Gig').slice(3))).ids;
        imported = insertsInto(env.db, 'events', () =>
          bulkImportEvents(env.db, env.config, records(l, 6, 'Race Gig'), {
            now: NOW,
            onProgress: (done) => progress.push(done),
          }),
        );
        // The batch's insert of race-gig-3 waits on the racer's uncommitted row.
        await lockWaits(env.db, 1);
      } finally {
        await racer.commit();
      }
      const [{ ids }, inserts] = await imported;
      expect(inserts).toBe(2);
      expect(progress).toEqual([6]);
      expect(await slugsOf(env, raced)).toEqual(['race-gig-3']);
      expect(await slugsOf(env, ids)).toEqual([
        'race-gig-0',
        'race-gig-1',
        'race-gig-2',
        'race-gig-3-2',
        'race-gig-4',
        'race-gig-5',
      ]);
      expect(await count(env.db, 'events', { venue_id: l.venue })).toBe(7);
      expect(await count(env.db, 'event_organizers', { organizer_id: l.organizers[0] })).toBe(7);
    });

    it('venues: the same race through bulkCreateVenues', async () => {
      if (env.dialect !== 'mysql') return;
      // The racer's id is taken beforehand: a bulk allocation would also lock the end of
      // post_ids, and the batch would then wait there, before its snapshot, and see the slug.
      const [id] = await env.db('post_ids').insert({ type: 'venue' });
      const admin = await env.db('users').where({ role: 'administrator' }).orderBy('id').first();
      const stamp = '2026-11-21 08:00:00';
      const racer = await other.transaction();
      const raced = [Number(id)];
      let inserted: Promise<[number[], number]>;
      try {
        await racer('venues').insert({
          id,
          status: 'publish',
          slug: 'race-hall-1',
          title: 'Race Hall 1',
          description: '',
          excerpt: '',
          author_id: admin.id,
          date: stamp,
          date_utc: stamp,
          modified: stamp,
          modified_utc: stamp,
        });
        inserted = insertsInto(env.db, 'venues', () =>
          bulkCreateVenues(
            env.db,
            env.config,
            [0, 1, 2].map((n) => ({ venue: `Race Hall ${n}` })),
          ),
        );
        await lockWaits(env.db, 1);
      } finally {
        await racer.commit();
      }
      const [ids, inserts] = await inserted;
      const slugs = async (table: string, of: number[]) =>
        (await env.db(table).whereIn('id', of).orderBy('id').select('slug')).map((r) => r.slug);
      expect(await slugs('venues', raced)).toEqual(['race-hall-1']);
      expect(inserts).toBe(2);
      expect(await slugs('venues', ids)).toEqual(['race-hall-0', 'race-hall-1-2', 'race-hall-2']);
      expect(await count(env.db, 'post_ids', { type: 'venue' })).toBe(
        await count(env.db, 'venues'),
      );
    });
  });
});
