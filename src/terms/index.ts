/** The door of src/terms: categories and tags. */
export {
  WP_TAXONOMY,
  childrenOf,
  getTerm,
  listTerms,
  parentOf,
  termUrl,
  termUrls,
  type TermListArgs,
} from './queries';
export {
  termListConnection,
  termsConnection,
  type TermConnectionArgs,
  type TermConnectionPage,
  type TermOrderField,
} from './keyset';
export {
  existingTermIds,
  findChildren,
  findTermsByIds,
  findTermsBySlugOrName,
  termSlugsLike,
} from './store/terms';
export {
  TERM_DESCRIPTION_BYTES_MAX,
  TERM_NAME_MAX,
  assertKnownTermIds,
  checkNewTermName,
  checkTermDescription,
  checkTermName,
  checkTermParentValue,
  checkTermSlug,
  termField,
  termSlugBase,
} from './rules';
export {
  lockTermRows,
  moveTermCounts,
  onlyTermIds,
  refreshTermCounts,
  termIdsAmong,
  termIdsByNames,
  termsForEvent,
} from './terms';
export {
  checkTermNameFree,
  checkTermParent,
  createTerm,
  deleteTerm,
  updateTerm,
  type TermInput,
} from './writes';
