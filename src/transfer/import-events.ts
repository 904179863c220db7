import { createHash } from 'node:crypto';
import { viewerFor, type ViewerUser } from '../users/viewer';
import type { Config } from '../config/config';
import { createContext, type AppContext } from '../context';
import { dialectOf, type Db } from '../db/knex';
import { InvalidParamError } from '../lib/errors';
import { globalId } from '../lib/urls';
import {
  findImportedEvents,
  findLiveIdsByNames,
  insertImportedEvents,
  nativeEventIds,
} from './store/imports';
import { LISTABLE_STATUSES, type PostStatus, type Taxonomy } from '../db/rows';
import { findTermsBySlugOrName } from '../terms/store/terms';
import { BulkImportError } from './bulk/batches';
import { checkedName, importContext, type ImportContext } from './bulk/common';
import { EventDateReader } from './bulk/dates';
import { bulkImportEvents, refreshTermCountsOf, type BulkEventRecord } from './bulk/import';
import { bulkCreateOrganizers, bulkCreateTerms, bulkCreateVenues } from './bulk/records';
import { parseCost } from '../events/input-cost';
import type { EventInput } from '../events/input';
import { updateEvent } from '../events/writes';
import { checkWebsite } from '../posts/fields';
import { ensureBuiltinAdmin } from '../users/users';

/**
 * The import engine behind `import:csv`, `import:ics` and `seed:demo`. Readers turn their format
 * into `ImportRecord`s (or problems); this engine takes them a chunk at a time (constant memory
 * whatever the file's size):
 *
 * 1. every record is validated with the rules of event writes; a bad one is reported with its
 *    line and skipped, the others go on;
 * 2. its external id (`key`: an ICS UID, a CSV `global_id`/`id`) finds the event it updates: one
 *    an earlier import created from that key (`event_import_uids`), else — when the key is one
 *    of this site's global ids — that native event; otherwise the record creates an event;
 * 3. venues and organizers are matched by name (case-insensitive, oldest first) or created,
 *    categories and tags by slug or name, or created;
 * 4. updates go through the normal update path (`updateEvent`, only the fields the source
 *    carries change); creates through the bulk path (`bulkImportEvents`, one transaction per
 *    chunk), recording each new event's key in the same transaction, so a second run of the
 *    same file updates instead of duplicating. A chunk whose bulk write fails is retried record
 *    by record, so one bad record never sinks the others.
 *
 * Term counts are refreshed once at the end.
 */

export interface ImportVenue {
  venue: string;
  address?: string;
  city?: string;
  state?: string;
  province?: string;
  zip?: string;
  country?: string;
  phone?: string;
  website?: string;
  geo_lat?: number | null;
  geo_lng?: number | null;
}

export interface ImportOrganizer {
  organizer: string;
  email?: string;
  phone?: string;
  website?: string;
}

/** Event fields as sources give them; a key that is absent was not given (kept on update). */
export interface ImportEventFields {
  title: string;
  start_date: string;
  end_date: string;
  timezone?: string | null;
  all_day?: boolean | null;
  description?: string | null;
  excerpt?: string | null;
  slug?: string | null;
  status?: string | null;
  cost?: string | null;
  website?: string | null;
  show_map?: boolean | null;
  show_map_link?: boolean | null;
  hide_from_listings?: boolean | null;
  sticky?: boolean | null;
  featured?: boolean | null;
  /** Publication instant (UTC `YYYY-MM-DD HH:MM:SS`), used on create only. */
  date_utc?: string | null;
}

export interface ImportProblem {
  line: number;
  /** The source's name of the offending column or property, when one is to blame. */
  column?: string;
  reason: string;
  /** A warning: the record was imported all the same. */
  warning?: boolean;
}

export interface ImportRecord {
  line: number;
  /** External id; null: always create. */
  key: string | null;
  fields: ImportEventFields;
  /** undefined: not given (kept on update); null: no venue. */
  venue?: ImportVenue | null;
  organizers?: ImportOrganizer[];
  categories?: string[];
  tags?: string[];
  /** Things the reader could not carry over (a recurrence rule …): reported, not fatal. */
  warnings?: ImportProblem[];
}

/** What readers yield: a record, or a row they could not read at all. */
export type ImportItem = ImportRecord | { problem: ImportProblem };

export interface ImportSummary {
  /** Records read (good and bad). */
  rows: number;
  created: number;
  updated: number;
  failed: number;
  warnings: number;
  seconds: number;
}

export interface ImportOptions {
  /** Records per chunk (one bulk transaction for its creates); default 1,000. */
  chunkSize?: number;
  now?: Date;
  /** The source's name of an event field (`start_date` → `DTSTART`), for problem reports. */
  columnOf?: (field: string) => string;
  onProblem?: (problem: ImportProblem) => void;
  /** After each chunk. */
  onProgress?: (summary: ImportSummary) => void;
}

const KEY_MAX = 255;
const SQL_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Keys longer than the column are kept as their hash. */
export function storedKey(key: string): string {
  const trimmed = key.trim();
  return trimmed.length <= KEY_MAX
    ? trimmed
    : `sha256:${createHash('sha256').update(trimmed).digest('hex')}`;
}

/** The local event id a key names when it is one of this site's global ids. */
export function ownEventId(config: Config, key: string): number | null {
  const prefix = globalId(config, 0).slice(0, -1);
  if (!key.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length);
  return /^\d{1,10}$/.test(rest) && Number(rest) > 0 ? Number(rest) : null;
}

function lower(name: string): string {
  return name.trim().toLowerCase();
}

function coordinate(field: string, value: number | null | undefined, limit: number): void {
  if (value === null || value === undefined) return;
  if (!Number.isFinite(value) || Math.abs(value) > limit) {
    throw new InvalidParamError({ [field]: `must be a number between -${limit} and ${limit}` });
  }
}

interface Links {
  venue_id: number | null;
  organizer_ids: number[];
  category_ids: number[];
  tag_ids: number[];
}

class ImportRun {
  readonly summary: ImportSummary = {
    rows: 0,
    created: 0,
    updated: 0,
    failed: 0,
    warnings: 0,
    seconds: 0,
  };
  private readonly touchedTerms = new Set<number>();
  private readonly started = performance.now();
  private readonly now: Date;
  /** One reader for the whole import: its zone and day caches stay warm. */
  private readonly dates: EventDateReader;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly options: ImportOptions,
    private readonly importCtx: ImportContext,
    private readonly appCtx: AppContext,
    private readonly admin: ViewerUser,
  ) {
    this.now = options.now ?? new Date();
    this.dates = new EventDateReader(config.siteTimezone, this.now);
  }

  private column(field: string): string {
    return this.options.columnOf?.(field) ?? field;
  }

  problem(problem: ImportProblem): void {
    if (problem.warning) this.summary.warnings += 1;
    this.options.onProblem?.(problem);
  }

  /** Reports a failed record: every parameter an InvalidParamError names, else its message. */
  fail(record: { line: number }, error: unknown, prefix = ''): void {
    this.summary.failed += 1;
    const cause = error instanceof BulkImportError && error.cause ? error.cause : error;
    if (cause instanceof InvalidParamError) {
      for (const [field, reason] of Object.entries(cause.params)) {
        this.problem({ line: record.line, column: this.column(field), reason: prefix + reason });
      }
      return;
    }
    const message = cause instanceof Error ? cause.message : String(cause);
    this.problem({ line: record.line, reason: prefix + message.replace(/^record \d+: /, '') });
  }

  /** The write rules of events and of the records they link to, before anything is written. */
  private validate(r: ImportRecord): void {
    const f = r.fields;
    checkedName('title', f.title, 500);
    const website = checkWebsite('website', f.website);
    if (website.length > 2048) throw new InvalidParamError({ website: 'is too long' });
    this.dates.read(f);
    parseCost(f.cost ?? null);
    // publishingColumns' checks, without sanitising the HTML twice (the write does it).
    if (f.status && !LISTABLE_STATUSES.includes(f.status as PostStatus)) {
      throw new InvalidParamError({ status: `must be one of ${LISTABLE_STATUSES.join(', ')}` });
    }
    if (f.date_utc && !SQL_DATE_TIME.test(f.date_utc)) {
      throw new InvalidParamError({ date_utc: 'must be YYYY-MM-DD HH:MM:SS' });
    }
    if (r.venue) {
      checkedName('venue', r.venue.venue, 500);
      checkWebsite('venue_website', r.venue.website);
      coordinate('venue_lat', r.venue.geo_lat, 90);
      coordinate('venue_lng', r.venue.geo_lng, 180);
    }
    for (const o of r.organizers ?? []) {
      checkedName('organizers', o.organizer, 500);
      checkWebsite('organizer_website', o.website);
    }
    for (const name of r.categories ?? []) checkedName('categories', name, 200);
    for (const name of r.tags ?? []) checkedName('tags', name, 200);
  }

  /** Reports the record's warnings and checks it: false (reported) when it cannot import. */
  accept(r: ImportRecord): boolean {
    for (const w of r.warnings ?? []) this.problem({ ...w, warning: true });
    try {
      this.validate(r);
      return true;
    } catch (error) {
      this.fail(r, error);
      return false;
    }
  }

  /** Writes a chunk of accepted records. */
  async chunk(valid: ImportRecord[]): Promise<void> {
    const targets = await this.targets(valid);
    const links = await this.links(valid);
    const creates: ImportRecord[] = [];
    for (const r of valid) {
      const target = r.key === null ? undefined : targets.get(storedKey(r.key));
      if (target === undefined) creates.push(r);
      else await this.update(r, target, links);
    }
    await this.create(creates, links);
    this.summary.seconds = (performance.now() - this.started) / 1000;
    this.options.onProgress?.({ ...this.summary });
  }

  /** `stored key → event id` of the records that update an existing event. */
  private async targets(records: ImportRecord[]): Promise<Map<string, number>> {
    const keys = records.flatMap((r) => (r.key === null ? [] : [storedKey(r.key)]));
    const found = await findImportedEvents(this.db, keys);
    const own = new Map<string, number>();
    for (const key of keys) {
      const id = found.has(key) ? null : ownEventId(this.config, key);
      if (id !== null) own.set(key, id);
    }
    const native = await nativeEventIds(this.db, [...own.values()]);
    for (const [key, id] of own) if (native.has(id)) found.set(key, id);
    return found;
  }

  /** Venue, organizer and term ids of every name the records use, creating what is missing. */
  private async links(records: ImportRecord[]) {
    const venues = await this.posts(
      'venues',
      records.flatMap((r) => (r.venue ? [r.venue] : [])),
      (v) => v.venue,
    );
    const organizers = await this.posts(
      'organizers',
      records.flatMap((r) => r.organizers ?? []),
      (o) => o.organizer,
    );
    const categories = await this.terms(
      'category',
      records.flatMap((r) => r.categories ?? []),
    );
    const tags = await this.terms(
      'tag',
      records.flatMap((r) => r.tags ?? []),
    );
    return (r: ImportRecord): Links => ({
      venue_id: r.venue ? (venues.get(lower(r.venue.venue)) ?? null) : null,
      organizer_ids: [
        ...new Set((r.organizers ?? []).map((o) => organizers.get(lower(o.organizer))!)),
      ],
      category_ids: [...new Set((r.categories ?? []).map((c) => categories.get(lower(c))!))],
      tag_ids: [...new Set((r.tags ?? []).map((t) => tags.get(lower(t))!))],
    });
  }

  private async posts<T extends ImportVenue | ImportOrganizer>(
    table: 'venues' | 'organizers',
    items: T[],
    nameOf: (item: T) => string,
  ): Promise<Map<string, number>> {
    const byName = new Map<string, T>();
    for (const item of items)
      if (!byName.has(lower(nameOf(item)))) byName.set(lower(nameOf(item)), item);
    const ids = await findLiveIdsByNames(this.db, table, [...byName.keys()]);
    const missing = [...byName].filter(([name]) => !ids.has(name));
    if (missing.length) {
      const options = { now: this.now, authorId: this.importCtx.author };
      const made =
        table === 'venues'
          ? await bulkCreateVenues(
              this.db,
              this.config,
              missing.map(([, v]) => ({
                ...(v as ImportVenue),
                venue: (v as ImportVenue).venue.trim(),
              })),
              options,
            )
          : await bulkCreateOrganizers(
              this.db,
              this.config,
              missing.map(([, o]) => ({
                ...(o as ImportOrganizer),
                organizer: (o as ImportOrganizer).organizer.trim(),
              })),
              options,
            );
      missing.forEach(([name], i) => ids.set(name, made[i]!));
    }
    return ids;
  }

  private async terms(taxonomy: Taxonomy, names: string[]): Promise<Map<string, number>> {
    const wanted = new Map<string, string>();
    for (const name of names) if (!wanted.has(lower(name))) wanted.set(lower(name), name.trim());
    const bySlug = new Map<string, number>();
    const byName = new Map<string, number>();
    for (const row of await findTermsBySlugOrName(this.db, taxonomy, [...wanted.values()])) {
      if (!bySlug.has(row.slug.toLowerCase())) bySlug.set(row.slug.toLowerCase(), row.id);
      if (!byName.has(row.name.toLowerCase())) byName.set(row.name.toLowerCase(), row.id);
    }
    const ids = new Map<string, number>();
    const missing: string[] = [];
    for (const [key, name] of wanted) {
      const id = bySlug.get(key) ?? byName.get(key);
      if (id === undefined) missing.push(name);
      else ids.set(key, id);
    }
    if (missing.length) {
      const made = await bulkCreateTerms(
        this.db,
        taxonomy,
        missing.map((name) => ({ name })),
      );
      missing.forEach((name, i) => ids.set(lower(name), made[i]!));
    }
    return ids;
  }

  private async update(r: ImportRecord, id: number, links: (r: ImportRecord) => Links) {
    const l = links(r);
    const input: EventInput = { ...(r.fields as EventInput) };
    delete (input as { date_utc?: unknown }).date_utc;
    if (!r.fields.status) delete input.status;
    if (r.venue !== undefined) input.venue = l.venue_id === null ? null : { id: l.venue_id };
    if (r.organizers !== undefined) input.organizer = l.organizer_ids.map((o) => ({ id: o }));
    if (r.categories !== undefined) input.categories = l.category_ids.map(String);
    if (r.tags !== undefined) input.tags = l.tag_ids.map(String);
    try {
      await updateEvent(this.appCtx, { id }, input);
      this.summary.updated += 1;
    } catch (error) {
      this.fail(r, error);
    }
  }

  private async create(records: ImportRecord[], links: (r: ImportRecord) => Links) {
    if (records.length === 0) return;
    const bulk: BulkEventRecord[] = records.map((r) => ({
      ...r.fields,
      status: (r.fields.status || null) as PostStatus | null,
      ...links(r),
    }));
    const keys = records.map((r) => (r.key === null ? null : storedKey(r.key)));
    try {
      await bulkImportEvents(this.db, this.config, bulk, {
        batchSize: bulk.length,
        now: this.now,
        authorId: this.importCtx.author,
        deferredTermCounts: this.touchedTerms,
        afterBatch: (trx, ids, offset) =>
          insertImportedEvents(
            trx,
            ids.flatMap((id, i) => {
              const uid = keys[offset + i];
              return uid ? [{ uid, event_id: id }] : [];
            }),
          ),
      });
      this.summary.created += records.length;
    } catch (error) {
      if (records.length === 1) {
        this.fail(records[0]!, error);
        return;
      }
      // Find the culprit(s): the chunk rolled back as a whole.
      for (const r of records) await this.create([r], links);
    }
  }

  async finish(): Promise<ImportSummary> {
    await refreshTermCountsOf(this.db, [...this.touchedTerms]);
    this.summary.seconds = (performance.now() - this.started) / 1000;
    return { ...this.summary };
  }
}

/** Imports every item, chunk by chunk; never throws for a bad record (see `onProblem`). */
export async function importEvents(
  db: Db,
  config: Config,
  items: AsyncIterable<ImportItem> | Iterable<ImportItem>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const now = options.now ?? new Date();
  const admin = await ensureBuiltinAdmin(db, now);
  const importCtx = await importContext(db, config, { now, authorId: admin.id });
  const appCtx = createContext(
    { config, db, dialect: dialectOf(config.databaseUrl), now: () => now },
    viewerFor(admin),
  );
  const run = new ImportRun(db, config, { ...options, now }, importCtx, appCtx, admin);
  const size = options.chunkSize ?? 1000;
  let chunk: ImportRecord[] = [];
  const keys = new Set<string>();
  const flush = async () => {
    if (chunk.length) await run.chunk(chunk);
    chunk = [];
    keys.clear();
  };
  for await (const item of items) {
    if ('problem' in item) {
      // A row that could not be read fails; a warning (a component skipped on purpose) does not.
      if (!item.problem.warning) {
        run.summary.rows += 1;
        run.summary.failed += 1;
      }
      run.problem(item.problem);
      continue;
    }
    run.summary.rows += 1;
    // Checked as they come, so problems are reported in line order.
    if (!run.accept(item)) continue;
    // The same key twice in one chunk: the first must exist before the second can update it.
    const key = item.key === null ? null : storedKey(item.key);
    if (key !== null && keys.has(key)) await flush();
    chunk.push(item);
    if (key !== null) keys.add(key);
    if (chunk.length >= size) await flush();
  }
  await flush();
  return run.finish();
}
