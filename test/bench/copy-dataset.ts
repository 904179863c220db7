import mysql from 'mysql2/promise';
import { loadConfig } from '../../src/config/config';
import { createDb } from '../../src/db/knex';
import {
  bulkCreateOrganizers,
  bulkCreateTerms,
  bulkCreateVenues,
  bulkImportEvents,
  type BulkEventRecord,
} from '../../src/transfer';

/**
 * `--direct` for our service (large sizes): the dataset the shared harness wrote into the raw
 * limit's schema by bulk SQL (`seed.mjs --direct`), copied row for row into ours through our own
 * bulk path (src/transfer/bulk: batched multi-row inserts, the same rules as a single write).
 * Both servers then hold the same records; neither seeding figure is an API figure.
 */

export interface Manifest {
  events: { id: number; slug: string }[];
  venues: { id: number; slug: string }[];
  organizers: { id: number; slug: string }[];
  categories: { id: number; slug: string; events?: number }[];
  tags: { id: number; slug: string }[];
  throughput: Record<string, unknown>;
  [key: string]: unknown;
}

type Row = Record<string, unknown>;
const CHUNK = 5000;

/** Copies the raw database into ours; returns our manifest (same order as `raw`'s). */
export async function copyDataset(
  rawUrl: string,
  oursUrl: string,
  raw: Manifest,
): Promise<Manifest> {
  const source = await mysql.createConnection({ uri: rawUrl, dateStrings: true });
  const config = loadConfig({ DATABASE_URL: oursUrl, LOG_LEVEL: 'warn' });
  const db = createDb(config);
  const started = performance.now();
  try {
    const [terms] = (await source.query('SELECT * FROM terms ORDER BY id')) as [Row[], unknown];
    const termIds = new Map<number, number>();
    for (const taxonomy of ['category', 'tag'] as const) {
      const rows = terms.filter((t) => t.taxonomy === taxonomy);
      const ids = await bulkCreateTerms(
        db,
        taxonomy,
        rows.map((t) => ({ name: String(t.name), description: String(t.description ?? '') })),
      );
      rows.forEach((t, i) => termIds.set(Number(t.id), ids[i]!));
    }
    const [venues] = (await source.query('SELECT * FROM venues ORDER BY id')) as [Row[], unknown];
    const venueIds = await bulkCreateVenues(
      db,
      config,
      venues.map((v) => ({
        venue: String(v.name),
        description: String(v.description ?? ''),
        address: String(v.address ?? ''),
        city: String(v.city ?? ''),
        state: String(v.state ?? ''),
        zip: String(v.zip ?? ''),
        country: String(v.country ?? ''),
        phone: String(v.phone ?? ''),
        website: String(v.website ?? ''),
      })),
    );
    const venueOf = new Map(venues.map((v, i) => [Number(v.id), venueIds[i]!]));
    const [organizers] = (await source.query('SELECT * FROM organizers ORDER BY id')) as [
      Row[],
      unknown,
    ];
    const organizerIds = await bulkCreateOrganizers(
      db,
      config,
      organizers.map((o) => ({
        organizer: String(o.name),
        description: String(o.description ?? ''),
        phone: String(o.phone ?? ''),
        website: String(o.website ?? ''),
        email: String(o.email ?? ''),
      })),
    );
    const organizerOf = new Map(organizers.map((o, i) => [Number(o.id), organizerIds[i]!]));
    const [counted] = (await source.query('SELECT COUNT(*) AS n FROM events')) as [
      { n: number }[],
      unknown,
    ];
    const n = counted[0]?.n ?? 0;
    const rawEventIds: number[] = [];
    async function* events(): AsyncGenerator<BulkEventRecord> {
      let after = 0;
      for (;;) {
        const [rows] = (await source.query(
          'SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?',
          [after, CHUNK],
        )) as [Row[], unknown];
        if (!rows.length) return;
        const ids = rows.map((r) => Number(r.id));
        const [orgs] = (await source.query(
          'SELECT event_id, organizer_id FROM event_organizers WHERE event_id IN (?) ORDER BY event_id, position',
          [ids],
        )) as [Row[], unknown];
        const [links] = (await source.query(
          'SELECT et.event_id, et.term_id, t.taxonomy FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE et.event_id IN (?) ORDER BY et.event_id, et.term_id',
          [ids],
        )) as [Row[], unknown];
        const group = (list: Row[], pick: (r: Row) => boolean, to: (r: Row) => number) => {
          const out = new Map<number, number[]>();
          for (const r of list.filter(pick)) {
            const key = Number(r.event_id);
            out.set(key, [...(out.get(key) ?? []), to(r)]);
          }
          return out;
        };
        const orgsOf = group(
          orgs,
          () => true,
          (r) => organizerOf.get(Number(r.organizer_id))!,
        );
        const catsOf = group(
          links,
          (r) => r.taxonomy === 'category',
          (r) => termIds.get(Number(r.term_id))!,
        );
        const tagsOf = group(
          links,
          (r) => r.taxonomy === 'tag',
          (r) => termIds.get(Number(r.term_id))!,
        );
        for (const r of rows) {
          const id = Number(r.id);
          rawEventIds.push(id);
          yield {
            title: String(r.title),
            slug: String(r.slug),
            description: String(r.description ?? ''),
            excerpt: String(r.excerpt ?? ''),
            status: 'publish',
            all_day: Boolean(r.all_day),
            start_date: String(r.start_date),
            end_date: String(r.end_date),
            timezone: 'UTC',
            cost: String(r.cost ?? ''),
            website: String(r.website ?? ''),
            featured: Boolean(r.featured),
            venue_id: r.venue_id === null ? null : venueOf.get(Number(r.venue_id))!,
            organizer_ids: orgsOf.get(id) ?? [],
            category_ids: catsOf.get(id) ?? [],
            tag_ids: tagsOf.get(id) ?? [],
          };
        }
        after = ids[ids.length - 1]!;
      }
    }
    let shown = 0;
    const result = await bulkImportEvents(db, config, events(), {
      total: Number(n),
      onProgress: (done) => {
        if (done - shown >= 50_000) {
          shown = done;
          process.stderr.write(`  ours: ${done.toLocaleString('en-US')} events copied\n`);
        }
      },
    });
    const ourEventOf = new Map(rawEventIds.map((id, i) => [id, result.ids[i]!]));
    const slugs = new Map<number, string>();
    for (let i = 0; i < result.ids.length; i += CHUNK) {
      const rows = (await db('events')
        .whereIn('id', result.ids.slice(i, i + CHUNK))
        .select('id', 'slug')) as { id: number; slug: string }[];
      for (const row of rows) slugs.set(Number(row.id), row.slug);
    }
    const map = <T extends { id: number }>(list: T[], ids: Map<number, number>) =>
      list.map((x) => ({ ...x, id: ids.get(x.id)! }));
    const seconds = (performance.now() - started) / 1000;
    const total = termIds.size + venueIds.length + organizerIds.length + result.ids.length;
    return {
      ...raw,
      events: raw.events.map((e) => {
        const id = ourEventOf.get(e.id)!;
        return { id, slug: slugs.get(id)! };
      }),
      venues: map(raw.venues, venueOf),
      organizers: map(raw.organizers, organizerOf),
      categories: map(raw.categories, termIds),
      tags: map(raw.tags, termIds),
      throughput: {
        mode: 'bulk-import',
        total_records: total,
        seconds: +seconds.toFixed(3),
        records_per_s: +(total / seconds).toFixed(2),
        note: "our bulk importer reading the raw limit's rows, NOT through the API",
      },
    };
  } finally {
    await source.end();
    await db.destroy();
  }
}
