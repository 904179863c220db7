import type { Config } from '../config';
import { createContext, type AppContext } from '../context';
import { dialectOf, type Db, type EventRow, type PostStatus } from '../db';
import {
  EventDateReader,
  findEventsByIds,
  updateEvent,
  type EventChanges,
  type EventInput,
} from '../events';
import { modifiedNow } from '../posts';
import { InvalidParamError } from '../lib';
import { ensureBuiltinAdmin, listUsers, viewerFor, type ViewerUser } from '../users';
import { BulkImportError } from './bulk/batches';
import { importContext, type ImportContext } from './bulk/common';
import { bulkImportEvents, refreshTermCountsOf, type BulkEventRecord } from './bulk/import';
import { eventsByIds, type ExportEvent } from './export-source';
import { changes, linksOf, updateInput } from './import/changes';
import { checkRecord } from './import/check';
import { matchRecords, requestedSlug, storedKey, type Match } from './import/keys';
import { MISSING, resolveLinks, type Links } from './import/links';
import type {
  ImportAction,
  ImportItem,
  ImportOptions,
  ImportProblem,
  ImportRecord,
  ImportRow,
  ImportSummary,
} from './import/records';
import { insertImportedEvents } from './store/imports';

export type {
  ImportAction,
  ImportEventFields,
  ImportItem,
  ImportOptions,
  ImportOrganizer,
  ImportProblem,
  ImportRecord,
  ImportRow,
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
 * 2. its identity — its key, else its slug — finds the event it is, or none (`import/keys.ts`);
 *    a row whose key and slug name different events fails, so no row overwrites another record;
 * 3. venues and organizers are matched by id or name, categories and tags by slug or name, or
 *    created (`import/links.ts`); a name the event already links to keeps that link;
 * 4. a row that would change nothing in its event is left alone (`import/changes.ts`); other
 *    updates go through the single-write path (`updateEvent`, only the fields the source
 *    carries change); creates through the bulk path (`bulkImportEvents`, the same normaliser,
 *    one transaction per chunk), recording each new event's key in the same transaction, so a
 *    second run of the same file finds them. A chunk whose bulk write fails is retried record
 *    by record, so one bad record never sinks the others.
 *
 * Term counts are refreshed once at the end. A dry run decides every row the same way (reads
 * only) and writes nothing.
 */

class ImportRun {
  readonly summary: ImportSummary = {
    rows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    warnings: 0,
    seconds: 0,
  };
  private readonly touchedTerms = new Set<number>();
  /** The columns each accepted record's check gave, for its create. */
  private readonly checked = new WeakMap<ImportRecord, EventChanges>();
  /** A dry run's would-be creates: their keys and slugs, which later rows then update. */
  private readonly dryKeys = new Set<string>();
  private readonly drySlugs = new Set<string>();
  /** Outcomes not reported yet: a chunk's rows are decided together, failures as they come. */
  private readonly decided: ImportRow[] = [];
  private readonly started = performance.now();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly options: ImportOptions & { now: Date },
    private readonly importCtx: ImportContext,
    private readonly appCtx: AppContext,
  ) {}

  private get dryRun(): boolean {
    return this.options.dryRun === true;
  }

  private column(field: string): string {
    return this.options.columnOf?.(field) ?? field;
  }

  problem(problem: ImportProblem): void {
    if (problem.warning) this.summary.warnings += 1;
    this.options.onProblem?.(problem);
  }

  private done(
    r: { line: number; title?: string | null },
    action: ImportAction,
    id: number | null,
  ) {
    this.summary[action] += 1;
    this.decided.push({ line: r.line, action, id, title: r.title ?? null });
  }

  /** Reports the rows decided so far, in line order (every row read is decided by now). */
  reportRows(): void {
    const rows = this.decided.splice(0).sort((a, b) => a.line - b.line);
    if (this.options.onRow) for (const row of rows) this.options.onRow(row);
  }

  /** A row that could not be read at all. */
  unreadable(problem: ImportProblem): void {
    this.summary.rows += 1;
    this.problem(problem);
    this.done({ line: problem.line }, 'failed', null);
  }

  /** Reports a failed record: every parameter an InvalidParamError names, else its message. */
  private fail(record: ImportRecord, error: unknown): void {
    const cause = error instanceof BulkImportError && error.cause ? error.cause : error;
    if (cause instanceof InvalidParamError) {
      for (const [field, reason] of Object.entries(cause.params)) {
        this.problem({ line: record.line, column: this.column(field), reason });
      }
    } else {
      const message = cause instanceof Error ? cause.message : String(cause);
      this.problem({ line: record.line, reason: message.replace(/^record \d+: /, '') });
    }
    this.done(rowOf(record), 'failed', null);
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

  /** A dry run's verdict on rows that name what an earlier row of the run would create. */
  private dryMatch(r: ImportRecord, match: Match): Match | 'pending' {
    if (!this.dryRun || !('id' in match) || match.id !== null) return match;
    const key = r.key === null ? null : storedKey(r.key);
    const slug = requestedSlug(r);
    if (key !== null ? this.dryKeys.has(key) : slug !== null && this.drySlugs.has(slug))
      return 'pending';
    if (key !== null && slug !== null && this.drySlugs.has(slug))
      return { conflict: `the slug "${slug}" is that of a row above: nothing written` };
    if (key !== null) this.dryKeys.add(key);
    if (slug !== null) this.drySlugs.add(slug);
    return match;
  }

  /** Writes (or, in a dry run, judges) a chunk of accepted records. */
  async chunk(valid: ImportRecord[]): Promise<void> {
    const matches = await matchRecords(this.db, this.config, valid);
    const updates = new Map<ImportRecord, number>();
    const creates: ImportRecord[] = [];
    for (const r of valid) {
      const match = this.dryMatch(r, matches.get(r)!);
      if (match === 'pending') this.done(rowOf(r), 'updated', null);
      else if ('conflict' in match) this.fail(r, new Error(match.conflict));
      else if (match.id === null) creates.push(r);
      else updates.set(r, match.id);
    }
    const ids = [...new Set(updates.values())];
    const current = new Map<number, ExportEvent>();
    for (const e of await eventsByIds(this.appCtx, ids)) current.set(e.id, e);
    const stored = new Map((await findEventsByIds(this.db, ids)).events.map((e) => [e.id, e]));
    const exported = (r: ImportRecord) => current.get(updates.get(r) ?? 0);
    const linked = [...updates.keys(), ...creates];
    const links = await resolveLinks(
      this.db,
      this.config,
      linked,
      this.dryRun ? null : this.bulkOptions(),
      (r) => {
        const e = exported(r);
        return e && linksOf(e);
      },
    );
    for (const [r, id] of updates) {
      const now = exported(r);
      const row = stored.get(id);
      await this.update(r, id, links(r), now && row && { exported: now, stored: row });
    }
    if (this.dryRun) for (const r of creates) this.done(rowOf(r), 'created', null);
    else await this.create(creates, links);
    this.summary.seconds = (performance.now() - this.started) / 1000;
    this.options.onProgress?.({ ...this.summary });
  }

  private bulkOptions() {
    return { now: this.options.now, authorId: this.importCtx.author };
  }

  /** The single-write update, when the row changes something: only the fields it carries. */
  private async update(
    r: ImportRecord,
    id: number,
    l: Links,
    current: { exported: ExportEvent; stored: EventRow } | undefined,
  ) {
    const input: EventInput = updateInput(r, l);
    try {
      if (current && !changes(this.importCtx.writer, input, current.exported, current.stored)) {
        this.done(rowOf(r), 'unchanged', id);
        return;
      }
      if (this.dryRun) {
        // A trashed (or vanished) event: the update would be refused.
        if (!current) throw new Error(`event #${id} is in the trash or gone`);
        this.done(rowOf(r), 'updated', id);
        return;
      }
      if (Object.values(l).flat().includes(MISSING)) throw new Error('a link was not resolved');
      await updateEvent(this.appCtx, { id }, input);
      this.done(rowOf(r), 'updated', id);
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
      const result = await bulkImportEvents(this.db, this.config, bulk, {
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
      records.forEach((r, i) => this.done(rowOf(r), 'created', result.ids[i] ?? null));
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
    if (!this.dryRun) await refreshTermCountsOf(this.db, [...this.touchedTerms]);
    this.summary.seconds = (performance.now() - this.started) / 1000;
    return { ...this.summary };
  }
}

function rowOf(r: ImportRecord): { line: number; title: string } {
  return { line: r.line, title: r.fields.title };
}

/** A dry run's context on a database without an administrator yet (one would be created). */
function standInContext(config: Config, admin: ViewerUser, now: Date): ImportContext {
  const zone = config.siteTimezone;
  const dates = new EventDateReader(zone, now);
  const writer = { viewer: viewerFor(admin), siteZone: zone, now, dates };
  return { config, author: admin.id, writer, stamps: modifiedNow(zone, now) };
}

/** The import's author: the first administrator (a dry run does not create one). */
async function importAuthor(db: Db, now: Date, dryRun: boolean): Promise<ViewerUser> {
  if (!dryRun) return ensureBuiltinAdmin(db, now);
  const admin = (await listUsers(db)).find((u) => u.role === 'administrator');
  return admin
    ? { id: admin.id, login: admin.login, role: 'administrator' }
    : { id: 0, login: 'admin', role: 'administrator' };
}

/** Imports every item, chunk by chunk; never throws for a bad record (see `onProblem`). */
export async function importEvents(
  db: Db,
  config: Config,
  items: AsyncIterable<ImportItem> | Iterable<ImportItem>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const now = options.now ?? new Date();
  const admin = await importAuthor(db, now, options.dryRun === true);
  const importCtx = admin.id
    ? await importContext(db, config, { now, authorId: admin.id })
    : standInContext(config, admin, now);
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
    run.reportRows();
    chunk = [];
    keys.clear();
  };
  for await (const item of items) {
    if ('problem' in item) {
      // A row that could not be read fails; a warning (a component skipped on purpose) does not.
      if (item.problem.warning) run.problem(item.problem);
      else run.unreadable(item.problem);
      continue;
    }
    run.summary.rows += 1;
    // Checked as they come, so problems are reported in line order.
    if (!(await run.accept(item))) continue;
    // The same key (or slug) twice in one chunk: the first must exist before the second is
    // matched against it.
    const slug = requestedSlug(item);
    const names = [
      ...(item.key === null ? [] : [`key:${storedKey(item.key)}`]),
      ...(slug === null ? [] : [`slug:${slug}`]),
    ];
    if (names.some((n) => keys.has(n))) await flush();
    chunk.push(item);
    for (const n of names) keys.add(n);
    if (chunk.length >= size) await flush();
  }
  await flush();
  return run.finish();
}
