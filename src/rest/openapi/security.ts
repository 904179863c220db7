import type { Schema } from './wire';

/**
 * Credentials in both OpenAPI documents (docs/contract.md §9): the schemes, and who needs them.
 * Every operation says which it takes: reads are public, but a caller who sends credentials reads
 * as that user (drafts, private records), so reads list "none" beside both schemes; writes need
 * one.
 */

export const SECURITY_SCHEMES: Schema = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API token: `Authorization: Bearer <token>`.',
  },
  applicationPassword: {
    type: 'http',
    scheme: 'basic',
    description: 'HTTP Basic with a user login and one of its application passwords.',
  },
};

/** `security` of every read: anonymous (`{}`), or either scheme. */
export const READ_SECURITY = [{}, { bearerAuth: [] }, { applicationPassword: [] }];

/** `security` of every write operation: one of the schemes. */
export const WRITE_SECURITY = [{ bearerAuth: [] }, { applicationPassword: [] }];
