/** The door of src/users: users, credentials, roles, permissions and the viewer. */
export {
  CredentialError,
  createApiToken,
  createAppPassword,
  verifyAppPassword,
  verifyToken,
} from './credentials';
export {
  FEED_TOKEN_PARAM,
  createFeedToken,
  verifyFeedToken,
  type SecretCheck,
} from './feed-tokens';
export {
  findFeedTokenById,
  listFeedTokens,
  revokeFeedToken,
  type FeedTokenRow,
} from './store/feed-tokens';
export {
  assertCanAttribute,
  assertCanChangeLinked,
  assertCanCreate,
  assertCanDelete,
  assertCanEdit,
  assertCanManageTerms,
  canEditRecord,
  canPublish,
  editScope,
  linkedRecordAuthor,
  type EditScope,
} from './permissions';
export { ROLES, isRole, type Role } from './roles';
export {
  findCredentialById,
  listCredentials,
  revokeCredential,
  type CredentialTable,
} from './store/credentials';
export { findUserById, findUserByLogin, listUsers } from './store/users';
export {
  bootstrapAdmin,
  checkRole,
  ensureBuiltinAdmin,
  insertNewUser,
  type BootstrapResult,
} from './users';
export { ANONYMOUS, seesUnpublished, viewerFor, type Viewer, type ViewerUser } from './viewer';
