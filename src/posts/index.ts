/** The door of src/posts: the publishing kernel events, venues and organizers share. */
export {
  MEDIUMTEXT_BYTES_MAX,
  TEXT_BYTES_MAX,
  TEXT_MAX,
  TITLE_MAX,
  URL_MAX,
  checkAuthor,
  checkStatus,
  checkWebsite,
  effectiveStatus,
  has,
  maxBytes,
  maxChars,
  modifiedNow,
  publishDates,
  requireText,
  richText,
  slugBase,
  uniqueSlug,
  type PublishingInput,
} from './fields';
export {
  compareKeys,
  connectionFromList,
  connectionOf,
  connectionWindow,
  emptyConnection,
  orderTag,
  sortKeys,
  type Connection,
  type ConnectionArgs,
  type ConnectionWindow,
  type Keyed,
  type OrderInput,
  type SortKey,
} from './connection';
export { decodeCursor, encodeCursor, type KeyValue } from './cursor';
export { resolveImage, transactWithImages } from './image-writes';
export { pageUrl, type PageKind } from './page-url';
export { envelope, paging, type Envelope, type Paging } from './paging';
export { Problems, given } from './problems';
export { renderDescription, renderExcerpt, renderTitle, renderedText } from './render';
export { asSingleRead, isSingleRead } from './single-read';
export { findImagesByIds } from './store/images';
export {
  deletePost,
  findById,
  findByIds,
  findBySlug,
  insertPost,
  slugsLike,
  updatePost,
} from './store/posts';
export { orderByKeys, selectKeys, takeKeys, whereBeyond, type KeyColumn } from './store/keyset';
export { whereEditable, whereReusable, whereTextReadable } from './store/scope';
export {
  assertReadable,
  canReference,
  canSee,
  listStatuses,
  protectedTextReaders,
  visibleStatuses,
} from './visibility';
