import type { Config } from '../config';
import { createContext, type AppContext } from '../context';
import { dialectOf, type Db, type PostStatus } from '../db';
import { updateEvent, type EventChanges, type EventInput } from '../events';
import { InvalidParamError } from '../lib';
import { ensureBuiltinAdmin, viewerFor } from '../users';
import { BulkImportError } from './bulk/batches';
import { importContext, type ImportContext } from './bulk/common';
import { bulkImportEvents, refreshTermCountsOf, type BulkEventRecord } from './bulk/import';
import { checkRecord, eventFieldsOf } from './import/check';
import { storedKey, updateTargets } from './import/keys';
import { resolveLinks, type Links } from './import/links';
import type {
  ImportItem,
  ImportOptions,
  ImportProblem,
  ImportRecord,
  ImportSummary,
} from './import/records';
import { insertImportedEvents } from './store/imports';

export type {
  ImportEventFields,
  ImportItem,
  ImportOptions,
  ImportOrganizer,
  ImportProblem,
  ImportRecord,
  ImportSummary,
  ImportVenue,
} from './import/records';
export { storedKey } from './import/keys';

/**
 * The import engine behind `import:csv`, `import:ics` and `seed:demo`, a client of the domains.
 * Readers turn their format into `ImportRecord`s (or problems); this engine takes them a chunk
 * at a time (constant memory whatever the file's size):
 *
 * 1. every record is checked by the rules a single write of it would meet (`import/check.ts`);
 *    a bad one is reported with its line and skipped, the others go on;
 * 2. its external id finds the event it updates (`import/keys.ts`); otherwise it creates one;
 * 3. venues and organizers are matched by id or name, categories and tags by slug or name, or
 *    created (`import/links.ts`);
 * 4. updates go through the single-write path (`updateEvent`, only the fields the source
 *    carries change); creates through the bulk path (`bulkImportEvents`, the same normaliser,
 *    one transaction per chunk), recording each new event's key in the same transaction, so a
 *    second run of the same file updates instead of duplicating. A chunk whose bulk write
 *    fails is retried record by record, so one bad record never sinks the others.
 *
 * Term counts are refreshed once at the end.
 */

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
  /** The columns each accepted record's check gave, for its create. */
  private readonly checked = new WeakMap<ImportRecord, EventChanges>();
  private readonly started = performance.now();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly options: ImportOptions & { now: Date },
    private readonly importCtx: ImportContext,
    private readonly appCtx: AppContext,
  ) {}

  private column(field: string): string {
    return this.options.columnOf?.(field) ?? field;
  }

  problem(problem: ImportProblem): void {
    if (problem.warning) this.summary.warnings += 1;
    this.options.onProblem?.(problem);
  }

  /** Reports a failed record: every parameter an InvalidParamError names, else its message. */
  private fail(record: { line: number }, error: unknown): void {
    this.summary.failed += 1;
    const cause = error instanceof BulkImportError && error.cause ? error.cause : error;
    if (cause instanceof InvalidParamError) {
      for (const [field, reason] of Object.entries(cause.params)) {
        this.problem({ line: record.line, column: this.column(field), reason });
      }
      return;
    }
    const message = cause instanceof Error ? cause.message : String(cause);
    this.problem({ line: record.line, reason: message.replace(/^record \d+: /, '') });
  }

  /** Reports the record's warnings and checks it: false (reported) when it cannot import. */
  async accept(r: ImportRecord): Promise<boolean> {
    for (const w of r.warnings ?? []) this.problem({ ...w, warning: true });
    try {
      this.checked.set(r, await checkRecord(this.importCtx.writer, r));
      return true;
    } catch (error) {
      this.fail(r, error);
      return false;
    }
  }

  /** Writes a chunk of accepted records. */
  async chunk(valid: ImportRecord[]): Promise<void> {
    const targets = await updateTargets(this.db, this.config, valid);
    const links = await resolveLinks(this.db, this.config, valid, this.bulkOptions());
    const creates: ImportRecord[] = [];
    for (const r of valid) {
      const target = r.key === null ? undefined : targets.get(storedKey(r.key));
      if (target === undefined) creates.push(r);
      else await this.update(r, target, links(r));
    }
    await this.create(creates, links);
    this.summary.seconds = (performance.now() - this.started) / 1000;
    this.options.onProgress?.({ ...this.summary });
  }

  private bulkOptions() {
    return { now: this.options.now, authorId: this.importCtx.author };
  }

  /** The single-write update: only the fields the source carries change. */
  private async update(r: ImportRecord, id: number, l: Links) {
    const input: EventInput = eventFieldsOf(r.fields);
    // The publication date is set once, by the import that created the event.
    delete input.date_utc;
    if (!input.status) delete input.status;
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
    const normalised = new WeakMap<BulkEventRecord, EventChanges>();
    const bulk: BulkEventRecord[] = records.map((r) => {
      const record = {
        ...r.fields,
        status: (r.fields.status || null) as PostStatus | null,
        ...links(r),
      };
      const columns = this.checked.get(r);
      if (columns) normalised.set(record, columns);
      return record;
    });
    const keys = records.map((r) => (r.key === null ? null : storedKey(r.key)));
    try {
      await bulkImportEvents(this.db, this.config, bulk, {
        ...this.bulkOptions(),
        batchSize: bulk.length,
        deferredTermCounts: this.touchedTerms,
        normalised: (record) => normalised.get(record),
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
  const run = new ImportRun(db, config, { ...options, now }, importCtx, appCtx);
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
    if (!(await run.accept(item))) continue;
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
