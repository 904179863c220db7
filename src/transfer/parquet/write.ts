import fs from 'node:fs';
import path from 'node:path';
import type { ParquetWriter as Writer } from 'hyparquet-writer';
import type { Queryable } from '../../db';
import { STAR_RELATIONS, type StarRelation } from './relations';
import { starPage } from './store/star-pages';
import { parquetValue, schemaElement } from './values';

/**
 * The Parquet export of the star schema (`calendar export:parquet DIR`, docs/bi.md): one
 * `<relation>.parquet` file per star view, written with hyparquet-writer (pure JavaScript). Rows
 * are read a keyset page at a time and written a row group at a time, so memory holds one row
 * group whatever the calendar's size; the file writer flushes to disk every megabyte.
 */

/** Rows per query. */
const PAGE_ROWS = 2_000;
/**
 * Rows per Parquet row group: enough for column statistics to skip data, few enough that the
 * encoder's working copies stay small. At 100,000 events the export runs with V8's heap capped
 * at 64 MB, as at 25,000; uncapped, 10,000-row groups peaked at ~300 MB RSS, 50,000 at ~420.
 */
const ROW_GROUP_ROWS = 10_000;

export interface ParquetExportOptions {
  pageRows?: number;
  rowGroupRows?: number;
  /** Called after each page with the relation's rows so far. */
  onRows?: (relation: string, rows: number) => void;
}

export interface ParquetFile {
  relation: string;
  file: string;
  rows: number;
}

/** hyparquet-writer is an ES module: loaded once, when an export runs. */
type WriterModule = typeof import('hyparquet-writer') & {
  /** Node's entry only (its types are the browser's): a file writer flushing every megabyte. */
  fileWriter(filename: string): ConstructorParameters<typeof Writer>[0]['writer'];
};
let writerModule: Promise<WriterModule> | undefined;
const loadWriter = () =>
  (writerModule ??= import('hyparquet-writer').then((m) => m as unknown as WriterModule));

/** Column arrays of one row group, filled page by page. */
class RowGroup {
  readonly data: Map<string, unknown[]>;
  size = 0;

  constructor(private readonly relation: StarRelation) {
    this.data = new Map(Object.keys(relation.columns).map((name) => [name, []]));
  }

  add(rows: readonly Record<string, unknown>[]): void {
    for (const [name, kind] of Object.entries(this.relation.columns)) {
      const column = this.data.get(name)!;
      for (const row of rows) column.push(parquetValue(kind, row[name]));
    }
    this.size += rows.length;
  }

  columnData() {
    return [...this.data].map(([name, data]) => ({ name, data }));
  }
}

async function writeRelation(
  q: Queryable,
  relation: StarRelation,
  file: string,
  options: ParquetExportOptions,
): Promise<number> {
  const { ParquetWriter, fileWriter } = await loadWriter();
  const names = Object.keys(relation.columns);
  const writer = new ParquetWriter({
    writer: fileWriter(file),
    schema: [
      { name: 'root', num_children: names.length },
      ...names.map((name) => schemaElement(name, relation.columns[name]!)),
    ],
    createdBy: 'calendar export:parquet (hyparquet-writer)',
  });
  const pageRows = options.pageRows ?? PAGE_ROWS;
  const groupRows = options.rowGroupRows ?? ROW_GROUP_ROWS;
  let group = new RowGroup(relation);
  let after: unknown[] | null = null;
  let rows = 0;
  for (;;) {
    const page = await starPage(q, relation, after, pageRows);
    if (page.length) {
      group.add(page);
      rows += page.length;
      const last = page[page.length - 1]!;
      after = relation.key.map((column) => last[column]);
      options.onRows?.(relation.name, rows);
    }
    const done = page.length < pageRows;
    // An empty relation still gets a file with its schema (and no row group).
    if (group.size >= groupRows || (done && group.size > 0)) {
      await writer.write({ columnData: group.columnData(), rowGroupSize: group.size });
      group = new RowGroup(relation);
    }
    if (done) break;
  }
  await writer.finish();
  return rows;
}

/** Writes every star relation into `dir` (created if missing); files of the same name are replaced. */
export async function exportStarParquet(
  q: Queryable,
  dir: string,
  options: ParquetExportOptions = {},
): Promise<ParquetFile[]> {
  fs.mkdirSync(dir, { recursive: true });
  const files: ParquetFile[] = [];
  for (const relation of STAR_RELATIONS) {
    const file = path.join(dir, `${relation.name}.parquet`);
    files.push({
      relation: relation.name,
      file,
      rows: await writeRelation(q, relation, file, options),
    });
  }
  return files;
}
