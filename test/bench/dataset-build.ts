import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config/config';
import type { Db } from '../../src/db/knex';
import { bulkImportEvents } from '../../src/transfer/bulk/import';
import {
  bulkCreateOrganizers,
  bulkCreateTerms,
  bulkCreateVenues,
} from '../../src/transfer/bulk/records';
import type { DatasetInfo, DatasetTarget } from './dataset';
import {
  categoryChildren,
  categoryRoots,
  eventRecords,
  GENERATOR_VERSION,
  organizerRecords,
  planFor,
  SEARCH_WORD,
  tagRecords,
  venueRecords,
  type Sample,
} from './dataset-gen';
import { progress } from './progress';

/** Builds a benchmark dataset into an empty, migrated database through the bulk path. */

export const MARKER = 'bench_dataset';

/** Runs on the empty, migrated database before anything is imported. */
export type BeforeImport = (databaseUrl: string, adminToken: string) => Promise<void>;

export async function build(
  db: Db,
  config: Config,
  target: DatasetTarget,
  beforeImport: BeforeImport,
): Promise<DatasetInfo> {
  const plan = planFor(target.events);
  const builtAt = new Date();
  const log = (line: string) => process.stderr.write(`  ${line}\n`);
  log(`building the ${target.dialect} dataset of ${plan.events.toLocaleString('en-US')} events`);
  // The administrator gets its token the way an operator's would (the bulk path then imports
  // as that first administrator).
  const token = `bench_${randomBytes(18).toString('base64url')}`;
  await beforeImport(config.databaseUrl, token);
  const roots = await bulkCreateTerms(db, 'category', categoryRoots());
  const categoryIds = [
    ...roots,
    ...(await bulkCreateTerms(db, 'category', categoryChildren(roots))),
  ];
  const tagIds = await bulkCreateTerms(db, 'tag', tagRecords());
  const venues = venueRecords(plan, target.seed);
  let bar = progress('venues', venues.length);
  const venueIds = await bulkCreateVenues(db, config, venues, { onProgress: (n) => bar.update(n) });
  bar.finish(venueIds.length);
  const organizers = organizerRecords(plan, target.seed);
  bar = progress('organizers', organizers.length);
  const organizerIds = await bulkCreateOrganizers(db, config, organizers, {
    onProgress: (n) => bar.update(n),
  });
  bar.finish(organizerIds.length);

  const sample: { value: Sample | null } = { value: null };
  const refs = { venues, venueIds, organizerIds, categoryIds, tagIds };
  bar = progress('events', plan.events);
  const result = await bulkImportEvents(
    db,
    config,
    eventRecords(plan, refs, target.seed, builtAt, sample),
    { total: plan.events, onProgress: (n) => bar.update(n) },
  );
  const eventsPerSecond = bar.finish(result.ids.length);
  if (!sample.value) throw new Error('the generator found no representative event');

  // S3 filters on the category with the median number of events: a realistic share.
  const counts = await db('terms').where({ taxonomy: 'category' }).orderBy('count').select('id');
  const info: DatasetInfo = {
    version: GENERATOR_VERSION,
    seed: target.seed,
    events: plan.events,
    builtAt: builtAt.toISOString(),
    venues: venueIds.length,
    organizers: organizerIds.length,
    categories: categoryIds.length,
    tags: tagIds.length,
    sample: {
      eventId: result.ids[sample.value.index]!,
      eventSlug: sample.value.slug,
      venueId: sample.value.venueId,
      organizerIds: sample.value.organizerIds,
      categoryId: Number(counts[Math.floor(counts.length / 2)]!.id),
      searchWord: SEARCH_WORD,
    },
    maxPostId: Number((await db('post_ids').max({ m: 'id' }).first())?.m ?? 0),
    maxTermId: Number((await db('terms').max({ m: 'id' }).first())?.m ?? 0),
    token,
    importSeconds: result.seconds,
    eventsPerSecond,
  };
  await db.schema.createTable(MARKER, (t) => {
    t.string('name', 50).primary();
    t.text('value').notNullable();
  });
  await db(MARKER).insert({ name: 'info', value: JSON.stringify(info) });
  return info;
}
