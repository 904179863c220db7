/**
 * Errors are data: domains throw `DomainError`s carrying a stable `code` (what kind of failure),
 * a `reason` (which one, for clients that tell them apart), the `resource` it concerns and, for
 * input errors, the offending parameters. They know no transport: each one maps them at its
 * edge (src/rest/errors.ts: HTTP status and the contract's WordPress code; src/graphql/errors.ts:
 * `extensions`; src/cli/errors.ts: exit codes).
 */

export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

/** Which failure of its code an error is: stable, transport-neutral. */
export type ErrorReason =
  | 'invalid_param'
  | 'missing_param'
  | 'invalid_json'
  | 'not_found'
  | 'not_accessible'
  | 'no_longer_available'
  | 'password_protected'
  | 'in_trash'
  | 'page_not_found'
  | 'unauthenticated'
  | 'bad_credentials'
  | 'forbidden'
  | 'too_large'
  | 'too_many_requests'
  | 'service_unavailable'
  | 'request_timeout'
  | 'internal_error';

/** The resources of the contract, as they appear in its error codes. */
export type ResourceName = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

export type InvalidParams = Record<string, string>;

export interface ErrorData {
  /** Input errors: parameter → reason (invalid), or the names of missing parameters. */
  params?: InvalidParams | string[];
  /** Seconds after which trying again may succeed. */
  retryAfter?: number;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly reason: ErrorReason,
    message: string,
    readonly resource?: ResourceName,
    readonly data: ErrorData = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** One or more parameters have unusable values (`data.params`: name → reason). */
export class InvalidParamError extends DomainError {
  constructor(readonly params: InvalidParams) {
    super('BAD_USER_INPUT', 'invalid_param', invalidMessage(params), undefined, { params });
  }
}

function invalidMessage(params: InvalidParams): string {
  const parts = Object.entries(params).map(([name, reason]) => `${name} (${reason})`);
  return `Invalid parameter(s): ${parts.join(', ')}`;
}

export function invalid(name: string, reason: string): InvalidParamError {
  return new InvalidParamError({ [name]: reason });
}

export class MissingParamError extends DomainError {
  constructor(readonly params: string[]) {
    super(
      'BAD_USER_INPUT',
      'missing_param',
      `Missing parameter(s): ${params.join(', ')}`,
      undefined,
      { params },
    );
  }
}

const LABEL: Record<ResourceName, string> = {
  event: 'Event',
  venue: 'Venue',
  organizer: 'Organizer',
  category: 'Category',
  tag: 'Tag',
};

export function notFound(resource: ResourceName, key: number | string): DomainError {
  const by = typeof key === 'number' ? `ID ${key}` : `slug "${key}"`;
  return new DomainError(
    'NOT_FOUND',
    'not_found',
    `${LABEL[resource]} with ${by} does not exist.`,
    resource,
  );
}

export function notAccessible(resource: ResourceName): DomainError {
  return new DomainError(
    'FORBIDDEN',
    'not_accessible',
    `The requested ${resource} is not accessible.`,
    resource,
  );
}

export function noLongerAvailable(resource: ResourceName): DomainError {
  return new DomainError(
    'FORBIDDEN',
    'no_longer_available',
    `This ${resource} is no longer available.`,
    resource,
  );
}

export function passwordProtected(resource: ResourceName): DomainError {
  return new DomainError(
    'FORBIDDEN',
    'password_protected',
    `The requested ${resource} is password protected; send the right "password" parameter.`,
    resource,
  );
}

export function inTrash(resource: ResourceName): DomainError {
  return new DomainError('GONE', 'in_trash', `The ${resource} is already in the trash.`, resource);
}

export function pageNotFound(resource: ResourceName): DomainError {
  return new DomainError(
    'NOT_FOUND',
    'page_not_found',
    'The requested page is past the last page of results.',
    resource,
  );
}

export function unauthenticated(): DomainError {
  return new DomainError(
    'UNAUTHENTICATED',
    'unauthenticated',
    'Sorry, you are not allowed to do that.',
  );
}

/** A credential was sent but is malformed, unknown, wrong or revoked: never anonymous. */
export function badCredentials(): DomainError {
  return new DomainError(
    'UNAUTHENTICATED',
    'bad_credentials',
    'The credentials sent are not valid: check the token or application password.',
  );
}

export function forbidden(): DomainError {
  return new DomainError('FORBIDDEN', 'forbidden', 'Sorry, you are not allowed to do that.');
}

/**
 * The database cannot be reached or dropped the connection (src/db/errors.ts decides); try again
 * after a second. Nothing was acknowledged: a write that met it was rolled back, unless the
 * connection died during its COMMIT — read before retrying.
 */
export function serviceUnavailable(): DomainError {
  return new DomainError(
    'SERVICE_UNAVAILABLE',
    'service_unavailable',
    'The database is unavailable. Try again shortly.',
    undefined,
    { retryAfter: 1 },
  );
}

/** A bug or an unexpected failure, described to clients without its details. */
export function unexpectedError(message: string): DomainError {
  return new DomainError('INTERNAL_SERVER_ERROR', 'internal_error', message);
}
