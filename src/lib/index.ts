/** The door of src/lib: small tools with no room of their own (dates, urls, slugs, html, errors). */
export {
  SQL_FORMAT,
  canonicalZone,
  dateDetails,
  formatSql,
  fromSql,
  isValidZone,
  localToUtc,
  nowIn,
  parseDateInput,
  toIsoWithOffset,
  utcSql,
  zoneAbbr,
} from './dates';
export { COSTS, Rng, clock, day } from './demo-data';
// Every export of errors.ts is public (the domain errors each transport maps), so all pass.
export * from './errors';
export { sanitizeRichText, stripTags } from './html';
export { primeAll } from './prime';
export { firstFreeSlug, toSlug } from './slug';
export {
  NAMESPACE,
  encodedQuery,
  flat,
  flatText,
  globalId,
  namespaceUrl,
  publicUrl,
  sitePath,
  readableQuery,
  restUrl,
} from './urls';
