import fs from 'node:fs';
import { parse, type CsvError } from 'csv-parse';
import type { Config } from '../../config';
import type { ImportItem, ImportOrganizer, ImportRecord, ImportVenue } from '../import/records';
import { splitList } from './columns';
import { unescapeFormula } from './formula';

/**
 * `import:csv`: rows of a CSV file (the columns `export:csv` writes, docs/import-export.md "CSV
 * columns") as import records, streamed with csv-parse. A header line is required; column names are
 * case-insensitive and their order is free; unknown columns are ignored. Only `title`, `start_date`
 * and `end_date` are required. An absent column leaves that field unchanged on update (default on
 * create); a present but empty cell clears it. A cell of quotes followed by `=`, `+`, `-`, `@`, tab
 * or CR loses one quote: the one CSV exports add against formula injection (`formula.ts`).
 */

const REQUIRED_COLUMNS = ['title', 'start_date', 'end_date'] as const;

/** The CSV column of an event field, for problem reports. */
export function csvColumnOf(field: string): string {
  return COLUMN_OF[field] ?? field;
}

/** Fields whose column has another name (an event write's `organizer` is the `organizers` list). */
const COLUMN_OF: Record<string, string> = { date_utc: 'published_utc', organizer: 'organizers' };

const TRUE = new Set(['true', '1', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'no', 'n']);

class CellError extends Error {
  constructor(
    readonly column: string,
    reason: string,
  ) {
    super(reason);
  }
}

type Row = Record<string, string | undefined>;

function has(row: Row, column: string): boolean {
  return row[column] !== undefined;
}

function text(row: Row, column: string): string | undefined {
  const value = row[column];
  return value === undefined ? undefined : value.trim();
}

function bool(row: Row, column: string): boolean | null | undefined {
  const value = text(row, column);
  if (value === undefined || value === '') return value === undefined ? undefined : null;
  const lowered = value.toLowerCase();
  if (TRUE.has(lowered)) return true;
  if (FALSE.has(lowered)) return false;
  throw new CellError(column, `"${value}" is not a boolean (true, false, 1, 0, yes, no)`);
}

function num(row: Row, column: string): number | null {
  const value = text(row, column);
  if (!value) return null;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CellError(column, `"${value}" is not a number`);
  return n;
}

/** `a; b; c` → names, empty ones dropped (`keepEmpty`: kept, for columns aligned by position). */
function list(value: string | undefined, keepEmpty = false): string[] {
  if (value === undefined || value.trim() === '') return [];
  const items = splitList(value).map((s) => s.trim());
  return keepEmpty ? items : items.filter((s) => s !== '');
}

/** Keys present in the row among these, copied (trimmed) into `out`. */
function copy<T extends object>(out: T, row: Row, pairs: [keyof T & string, string][]): void {
  for (const [field, column] of pairs) {
    const value = text(row, column);
    if (value !== undefined) (out as Record<string, unknown>)[field] = value;
  }
}

function venueOf(row: Row): ImportVenue | null | undefined {
  if (!has(row, 'venue')) return undefined;
  const name = text(row, 'venue');
  if (!name) return null;
  const venue: ImportVenue = { venue: name };
  copy(venue, row, [
    ['address', 'venue_address'],
    ['city', 'venue_city'],
    ['state', 'venue_state'],
    ['province', 'venue_province'],
    ['zip', 'venue_zip'],
    ['country', 'venue_country'],
    ['phone', 'venue_phone'],
    ['website', 'venue_website'],
  ]);
  venue.geo_lat = num(row, 'venue_lat');
  venue.geo_lng = num(row, 'venue_lng');
  return venue;
}

function organizersOf(row: Row): ImportOrganizer[] | undefined {
  if (!has(row, 'organizers')) return undefined;
  const names = list(row.organizers);
  const emails = list(row.organizer_emails, true);
  return names.map((organizer, i) => ({ organizer, email: emails[i] ?? '' }));
}

/** One data row as an import record; a bad cell throws a CellError. */
function csvRecord(row: Row, line: number): ImportRecord {
  // The row's identity is its global_id, else its slug (docs/import-export.md "Identity"); the
  // id column is the exporting calendar's own and only for reading.
  const key = text(row, 'global_id') || null;
  const fields: ImportRecord['fields'] = {
    title: row.title ?? '',
    start_date: text(row, 'start_date') ?? '',
    end_date: text(row, 'end_date') ?? '',
  };
  copy(fields, row, [
    ['description', 'description'],
    ['excerpt', 'excerpt'],
    ['cost', 'cost'],
    ['website', 'website'],
  ]);
  const zone = text(row, 'timezone');
  if (zone !== undefined) fields.timezone = zone || null;
  for (const name of ['slug', 'status', 'published_utc'] as const) {
    const value = text(row, name);
    if (value) fields[name === 'published_utc' ? 'date_utc' : name] = value;
  }
  for (const flag of [
    'all_day',
    'featured',
    'sticky',
    'hide_from_listings',
    'show_map',
    'show_map_link',
  ] as const) {
    const value = bool(row, flag);
    if (value !== undefined) fields[flag] = value;
  }
  return {
    line,
    key,
    fields,
    venue: venueOf(row),
    organizers: organizersOf(row),
    categories: has(row, 'categories') ? list(row.categories) : undefined,
    tags: has(row, 'tags') ? list(row.tags) : undefined,
  };
}

class CsvHeaderError extends Error {}

/**
 * The records of a CSV file, streamed; unreadable rows come out as problems. (`_config`: the
 * readers' common signature; iCalendar needs the site's zone and address, CSV nothing.)
 */
export async function* csvRecords(
  _config: Config,
  file: string,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<ImportItem> {
  const skipped: ImportItem[] = [];
  const input = fs.createReadStream(file);
  if (onBytes) {
    let bytes = 0;
    input.on('data', (chunk) => onBytes((bytes += chunk.length)));
  }
  const parser = input.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim().toLowerCase());
        const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
        if (missing.length) {
          throw new CsvHeaderError(
            `the header line lacks the required column(s) ${missing.join(', ')}`,
          );
        }
        return names;
      },
      // The quote CSV writers put before a would-be formula comes off (`formula.ts`).
      cast: (value, context) => (context.header ? value : unescapeFormula(value)),
      record_delimiter: ['\r\n', '\n'], // mixed line ends too
      skip_empty_lines: true,
      skip_records_with_error: true,
      info: true,
    }),
  );
  // csv-parse counts a CRLF inside a quoted value as two lines: keep its count honest, and
  // report a record spanning lines at its first line.
  let doubled = 0;
  parser.on('skip', (error: CsvError) => {
    const line = Number((error as CsvError & { lines?: number }).lines ?? 0) - doubled;
    const counts = /columns length is (\d+), got (\d+)/.exec(error.message);
    const reason = counts
      ? `the row has ${counts[2]} columns, the header ${counts[1]}`
      : error.message.replace(/ on line \d+$/, '');
    skipped.push({ problem: { line, reason } });
  });
  const lineOf = (item: ImportItem) => ('problem' in item ? item.problem.line : item.line);
  for await (const { record, info } of parser as AsyncIterable<{
    record: Row;
    info: { lines: number };
  }>) {
    let inside = 0;
    for (const value of Object.values(record)) {
      if (!value) continue;
      doubled += value.split('\r\n').length - 1;
      inside += value.split('\n').length - 1;
    }
    const line = info.lines - doubled - inside;
    // Rows skipped before this one (the parser reads ahead) come out first, in line order.
    while (skipped.length && lineOf(skipped[0]!) < line) yield skipped.shift()!;
    try {
      yield csvRecord(record, line);
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      yield { problem: { line, column: error.column, reason: error.message } };
    }
  }
  yield* skipped.splice(0);
}
