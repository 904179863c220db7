/** The door of src/db: the Knex instance, row types, transactions and the migration runner. */
export { describeDbError, isDatabaseUnavailable, isDuplicateKey } from './errors';
export { HotRead, KeyedRead } from './hot-read';
export { clientDialect, createDb, dialectOf, redactedUrl, type Db, type Dialect } from './knex';
export {
  bumpListGeneration,
  cachedTotal,
  onCommittedWrite,
  onTotalsDropped,
  keepTotal,
  pageAndTotal,
  rowGeneration,
  selectGeneration,
  watchCommittedWrites,
  writeGeneration,
} from './list-counts';
export { migrateLatest, pendingMigrations } from './migrate';
export { normalizeRow, normalizeRows, type Queryable } from './queryable';
export { plainRows, rowReader, type FieldMap } from './row-reader';
export { transact, type NameLock } from './retry';
export { whereExactly, whereNameIn, whereSameName } from './same-text';
export {
  LISTABLE_STATUSES,
  POST_COLUMNS,
  type EventRow,
  type ImageRow,
  type OrganizerRow,
  type PostRow,
  type PostStatus,
  type PostTable,
  type Taxonomy,
  type TermRow,
  type UserRow,
  type VenueRow,
} from './rows';
export { StartupError, migrateWhenReachable } from './startup';
