import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Column } from './csv/columns';
import { csvText } from './csv/write';
import type { ExportEvent } from './export-rows';
import { CALENDAR_TAIL, calendarHead, eventText, type ZoneYears } from './ics/build';

/**
 * Exports as a sequence of text chunks (ICS feeds, CSV over HTTP, `export:csv`, `export:ics`):
 * whoever writes them (an HTTP response, a file) asks for the next chunk only when it has taken
 * the last one, so a slow reader holds back the reading and rendering (back-pressure), and the
 * work between two chunks is bounded in time: rendering yields a chunk every `SLICE_MS`, then
 * waits for a turn of the event loop, so that other requests run while a 5,000-event feed is
 * written (the database reads are pages, with a turn between them too: `export-source.ts`).
 */

/** The longest a piece of rendering holds the event loop before it yields. */
const SLICE_MS = 5;

/** Rows rendered by one call of csv-stringify (it is cheap per call, not per row). */
const CSV_BATCH = 50;

/**
 * The text of `items`, `batch` at a time, in slices of about `SLICE_MS`: each slice comes out
 * as one chunk, followed by a turn of the event loop.
 */
async function* sliced<T>(
  items: readonly T[],
  render: (batch: readonly T[]) => string,
  batch: number,
): AsyncGenerator<string> {
  let parts: string[] = [];
  let started = performance.now();
  for (let i = 0; i < items.length; i += batch) {
    parts.push(render(items.slice(i, i + batch)));
    if (performance.now() - started >= SLICE_MS && i + batch < items.length) {
      yield parts.join('');
      parts = [];
      await nextTurn();
      started = performance.now();
    }
  }
  if (parts.length) yield parts.join('');
}

/** A CSV file: the header line, then the rows of each page. */
export async function* csvChunks<T>(
  columns: readonly Column<T>[],
  pages: AsyncIterable<readonly T[]>,
): AsyncGenerator<string> {
  yield csvText(columns, [], true);
  for await (const page of pages) {
    yield* sliced(page, (rows) => csvText(columns, rows, false), CSV_BATCH);
  }
}

const renderEvents = (events: readonly ExportEvent[]) => events.map(eventText).join('');

/**
 * An iCalendar file: its head (with the VTIMEZONEs of `zones`, which must cover the events'
 * zones and years: the head comes first), a VEVENT per event of each page, the tail.
 */
export async function* icsChunks(
  head: { name: string; zones: ZoneYears },
  pages: AsyncIterable<readonly ExportEvent[]>,
): AsyncGenerator<string> {
  yield calendarHead(head);
  for await (const page of pages) yield* sliced(page, renderEvents, 1);
  yield CALENDAR_TAIL;
}
