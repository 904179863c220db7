/** The door of src/transfer: import and export in every format (CSV, ICS, bulk). */
export { BulkImportError } from './bulk/batches';
export {
  bulkImportEvents,
  type BulkEventOptions,
  type BulkEventRecord,
  type BulkResult,
} from './bulk/import';
export {
  bulkCreateOrganizers,
  bulkCreateTerms,
  bulkCreateVenues,
  type BulkOrganizerRecord,
  type BulkTermRecord,
  type BulkVenueRecord,
} from './bulk/records';
export { COLUMNS, EVENT_COLUMNS } from './csv/columns';
export { csvColumnOf, csvRecords } from './csv/import';
export { csvChunks, icsChunks } from './export-stream';
export {
  COLLECTIONS,
  EXPORT_PAGE_SIZE,
  eventsByIds,
  exportContext,
  fetchPage,
  remainingPages,
  singleEvent,
  STREAM_PAGE_SIZE,
  userExportContext,
  type Collection,
  type ExportArgs,
  type ExportEvent,
  type ExportItems,
  type PagedList,
} from './export-source';
export { addZoneYears, calendarText, type ZoneYears } from './ics/build';
export { icsFeed, type IcsFeed } from './ics/feed';
export { icsColumnOf, icsRecords } from './ics/import';
export {
  importEvents,
  type ImportItem,
  type ImportProblem,
  type ImportRecord,
  type ImportRow,
  type ImportSummary,
} from './import-events';
export { countLiveEvents, eventIdsAfter, eventZoneSpans } from './store/imports';
export { exportStarParquet, type ParquetFile } from './parquet/write';
