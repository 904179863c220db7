import fs from 'node:fs';
import { once } from 'node:events';
import {
  addZoneYears,
  COLLECTIONS,
  COLUMNS,
  countLiveEvents,
  csvChunks,
  EVENT_COLUMNS,
  eventIdsAfter,
  eventsByIds,
  eventZoneSpans,
  icsChunks,
  EXPORT_PAGE_SIZE,
  fetchPage,
  remainingPages,
  userExportContext,
  type Collection,
  type ExportArgs,
  type ExportEvent,
  type ZoneYears,
} from '../transfer';
import type { AppContext } from '../context';
import { ensureBuiltinAdmin } from '../users';
import { JSON_OPTION, usageError, type Command, type CommandContext } from './common';
import { progress, rate } from './import-progress';

/**
 * `export:csv [FILE]` and `export:ics [FILE]` (docs/import-export.md): every non-trashed
 * event (drafts, hidden and password-protected ones included, unredacted: it runs as the
 * administrator), streamed a page at a time in id order (a keyset walk: constant memory and
 * time per page at any size), to FILE or standard output (`-` or no FILE; then run
 * `npm run --silent calendar -- …` so npm's banner stays out of the data). `export:csv
 * --collection venues|organizers|categories|tags` exports those instead. The summary goes to
 * standard output, or to standard error when the data does. The text is the chunks HTTP exports
 * stream (`src/transfer/export-stream.ts`), each written once the last one drained.
 */

const DEFAULT_BATCH = 200;

interface Output {
  write(chunks: AsyncIterable<string>): Promise<void>;
  close(): Promise<void>;
  toStdout: boolean;
}

function output(file: string | undefined): Output {
  const toStdout = file === undefined || file === '-';
  const stream = toStdout ? process.stdout : fs.createWriteStream(file);
  let failure: Error | null = null;
  stream.on('error', (error: Error) => {
    failure = error;
  });
  return {
    toStdout,
    async write(chunks) {
      for await (const text of chunks) {
        if (failure) throw failure;
        // Back-pressure: the next chunk is read and rendered once this one is taken.
        if (text && !stream.write(text)) await once(stream, 'drain');
      }
      if (failure) throw failure;
    },
    async close() {
      if (failure) throw failure;
      if (toStdout) return;
      const done = once(stream, 'finish');
      (stream as fs.WriteStream).end();
      await done;
    },
  };
}

/** The administrator's export context: every non-trashed record, unredacted. */
async function adminContext({ db, config, now }: CommandContext): Promise<AppContext> {
  const admin = await ensureBuiltinAdmin(db, now);
  return userExportContext(db, config, admin, now);
}

/** Every non-trashed event, a batch at a time, by id. */
async function* allEvents(ctx: CommandContext, reader: AppContext): AsyncGenerator<ExportEvent[]> {
  let after = 0;
  for (;;) {
    const ids = await eventIdsAfter(ctx.db, after, DEFAULT_BATCH);
    if (ids.length === 0) return;
    after = ids[ids.length - 1]!;
    const events = await eventsByIds(reader, ids);
    if (events.length) yield events;
  }
}

function collectionOf(values: Record<string, unknown>): Collection {
  const raw = values.collection;
  if (raw === undefined) return 'events';
  if (typeof raw === 'string' && (COLLECTIONS as readonly string[]).includes(raw)) {
    return raw as Collection;
  }
  throw usageError(`--collection must be one of ${COLLECTIONS.join(', ')}.`);
}

/** The pages of `pages`, counted on the progress bar as they pass. */
async function* counted<T>(
  pages: AsyncIterable<T[]>,
  onPage: (rows: number) => void,
): AsyncGenerator<T[]> {
  for await (const page of pages) {
    onPage(page.length);
    yield page;
  }
}

/** Venues, organizers or terms: the list page by page (terms: empty ones too). */
async function* allOf<C extends Exclude<Collection, 'events'>>(reader: AppContext, collection: C) {
  const args = (
    collection === 'categories' || collection === 'tags' ? { hide_empty: false } : {}
  ) as ExportArgs[C];
  const first = await fetchPage(reader, collection, args, 1, EXPORT_PAGE_SIZE);
  return yield* remainingPages(reader, collection, args, first, EXPORT_PAGE_SIZE);
}

function summarise(
  ctx: CommandContext,
  values: Record<string, unknown>,
  target: Output,
  what: string,
  count: number,
  started: number,
): void {
  const seconds = (performance.now() - started) / 1000;
  const where = target.toStdout ? 'standard output' : String(values.file);
  const say = target.toStdout ? (line: string) => console.error(line) : ctx.out;
  if (values.json) {
    say(
      JSON.stringify({
        file: target.toStdout ? '-' : values.file,
        [what]: count,
        seconds,
        rows_per_second: rate(count, seconds),
      }),
    );
    return;
  }
  const n = (x: number) => x.toLocaleString('en-US');
  say(
    `${where}: ${n(count)} ${what} exported in ${seconds.toFixed(1)} s (${n(rate(count, seconds))} rows/s)`,
  );
}

export const exportCommands: Record<string, Command> = {
  'export:csv': {
    usage: '[FILE] [--collection events|venues|organizers|categories|tags] [--json]',
    summary:
      'Export every non-trashed event (or another collection) as CSV, to FILE or standard output.',
    options: { collection: { type: 'string' }, ...JSON_OPTION },
    positionals: ['file'],
    async run(ctx, values) {
      const collection = collectionOf(values);
      const started = performance.now();
      const reader = await adminContext(ctx);
      const target = output(values.file as string | undefined);
      const total = collection === 'events' ? await countLiveEvents(ctx.db) : 0;
      const bar = progress(`export:csv ${collection}`, total);
      let count = 0;
      const onPage = (rows: number) => bar.update((count += rows), count);
      try {
        const pages: AsyncIterable<unknown[]> =
          collection === 'events' ? allEvents(ctx, reader) : allOf(reader, collection);
        const columns = collection === 'events' ? EVENT_COLUMNS : COLUMNS[collection];
        await target.write(csvChunks(columns as never[], counted(pages, onPage)));
        await target.close();
      } finally {
        bar.stop();
      }
      summarise(ctx, values, target, collection, count, started);
    },
  },

  'export:ics': {
    usage: '[FILE] [--json]',
    summary: 'Export every non-trashed event as an iCalendar file, to FILE or standard output.',
    options: { ...JSON_OPTION },
    positionals: ['file'],
    async run(ctx, values) {
      const started = performance.now();
      const reader = await adminContext(ctx);
      const target = output(values.file as string | undefined);
      const zones: ZoneYears = new Map();
      for (const span of await eventZoneSpans(ctx.db)) {
        addZoneYears(zones, span.timezone, span.first, span.last);
      }
      const total = await countLiveEvents(ctx.db);
      const bar = progress('export:ics', total);
      let count = 0;
      const onPage = (rows: number) => bar.update((count += rows), count);
      try {
        const name = `${new URL(ctx.config.siteUrl).host} events`;
        await target.write(icsChunks({ name, zones }, counted(allEvents(ctx, reader), onPage)));
        await target.close();
      } finally {
        bar.stop();
      }
      summarise(ctx, values, target, 'events', count, started);
    },
  },
};
