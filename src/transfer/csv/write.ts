import { stringify } from 'csv-stringify/sync';
import { cells, type Column } from './columns';

/**
 * CSV text of some rows (RFC 4180: commas, double quotes where needed, CRLF line ends), with
 * the header line when `header` is true. Writers call it once per page, so a file of any size
 * is written a page at a time.
 */
export function csvText<T>(columns: readonly Column<T>[], rows: readonly T[], header: boolean) {
  const records = rows.map((r) => cells(columns, r));
  if (header) records.unshift(columns.map((c) => c.name));
  return records.length
    ? stringify(records, { record_delimiter: 'windows', quoted_match: /[\r\n]/ })
    : '';
}
