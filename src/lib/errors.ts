import { GraphQLError } from 'graphql';

/**
 * Errors are data: services throw `AppError`s carrying a stable GraphQL `code`, the contract's
 * REST code and, for input errors, the offending parameters. This file is the one place codes
 * map to HTTP statuses; resolvers never set statuses.
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

const STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
};

export function statusOf(code: string): number {
  return STATUS[code as ErrorCode] ?? 500;
}

/** The resources of the contract, as they appear in its error codes. */
export type ResourceName = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

export type InvalidParams = Record<string, string>;

export class AppError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    readonly restCode: string,
    message: string,
    params?: InvalidParams | string[],
  ) {
    super(message, {
      extensions: { code, rest_code: restCode, ...(params ? { params } : {}) },
    });
    this.name = 'AppError';
  }
}

/** One or more parameters have unusable values (`data.params`: name → reason). */
export class InvalidParamError extends AppError {
  constructor(readonly params: InvalidParams) {
    super('BAD_USER_INPUT', 'rest_invalid_param', invalidMessage(params), params);
  }
}

function invalidMessage(params: InvalidParams): string {
  const parts = Object.entries(params).map(([name, reason]) => `${name} (${reason})`);
  return `Invalid parameter(s): ${parts.join(', ')}`;
}

export function invalid(name: string, reason: string): InvalidParamError {
  return new InvalidParamError({ [name]: reason });
}

export class MissingParamError extends AppError {
  constructor(readonly params: string[]) {
    super(
      'BAD_USER_INPUT',
      'rest_missing_callback_param',
      `Missing parameter(s): ${params.join(', ')}`,
      params,
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

export function notFound(resource: ResourceName, key: number | string): AppError {
  const by = typeof key === 'number' ? `ID ${key}` : `slug "${key}"`;
  return new AppError(
    'NOT_FOUND',
    `rest-${resource}-not-found`,
    `${LABEL[resource]} with ${by} does not exist.`,
  );
}

export function notAccessible(resource: ResourceName): AppError {
  return new AppError(
    'FORBIDDEN',
    `${resource}-not-accessible`,
    `The requested ${resource} is not accessible.`,
  );
}

export function noLongerAvailable(resource: ResourceName): AppError {
  return new AppError(
    'FORBIDDEN',
    `${resource}-no-longer-available`,
    `This ${resource} is no longer available.`,
  );
}

export function passwordProtected(resource: ResourceName): AppError {
  return new AppError(
    'FORBIDDEN',
    `${resource}-password-protected`,
    `The requested ${resource} is password protected; send the right "password" parameter.`,
  );
}

export function inTrash(resource: ResourceName): AppError {
  return new AppError(
    'GONE',
    `${resource}-is-in-trash`,
    `The ${resource} is already in the trash.`,
  );
}

export function pageNotFound(resource: ResourceName): AppError {
  return new AppError(
    'NOT_FOUND',
    `${resource}-archive-page-not-found`,
    'The requested page is past the last page of results.',
  );
}

export function unauthenticated(): AppError {
  return new AppError(
    'UNAUTHENTICATED',
    'rest_forbidden',
    'Sorry, you are not allowed to do that.',
  );
}

/** A credential was sent but is malformed, unknown, wrong or revoked: never anonymous. */
export function badCredentials(): AppError {
  return new AppError(
    'UNAUTHENTICATED',
    'rest_forbidden',
    'The credentials sent are not valid: check the token or application password.',
  );
}

export function forbidden(): AppError {
  return new AppError('FORBIDDEN', 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

/**
 * The database cannot be reached or dropped the connection (src/db/errors.ts decides): 503
 * `rest_service_unavailable` with `Retry-After`, GraphQL `extensions.code`
 * `SERVICE_UNAVAILABLE` (and HTTP 503 on /graphql too). Nothing was acknowledged: a write that
 * met it was rolled back, unless the connection died during its COMMIT — read before retrying.
 */
export function serviceUnavailable(): AppError {
  const error = new AppError(
    'SERVICE_UNAVAILABLE',
    'rest_service_unavailable',
    'The database is unavailable. Try again shortly.',
  );
  (error.extensions as Record<string, unknown>).http = {
    status: 503,
    headers: { 'Retry-After': '1' },
  };
  return error;
}
