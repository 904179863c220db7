import { isDatabaseUnavailable } from '../db';
import { domainErrorOf } from '../graphql/domain-errors';
import { DomainError, serviceUnavailable, type ErrorCode, type ErrorReason } from '../lib';

/**
 * Every REST failure as the contract's envelope (docs/contract.md §8):
 * `{"code", "message", "data": {"status", "params"?, "details"?}}`. Domain errors reach it
 * thrown or inside GraphQL errors (`domainErrorOf`); the two tables below turn their code into
 * the HTTP status and their reason (and resource) into the contract's WordPress code. GraphQL
 * reports the same status and code (src/graphql/errors.ts), so these are the only tables.
 */

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

/** The HTTP status of an error code (500 for codes that are not ours). */
export function statusOf(code: string): number {
  return STATUS[code as ErrorCode] ?? 500;
}

/** The contract's code of each reason; a function of the resource where the contract names it. */
const WORDPRESS_CODE: Record<ErrorReason, string | ((resource: string) => string)> = {
  invalid_param: 'rest_invalid_param',
  missing_param: 'rest_missing_callback_param',
  invalid_json: 'rest_invalid_json',
  not_found: (resource) => `rest-${resource}-not-found`,
  not_accessible: (resource) => `${resource}-not-accessible`,
  no_longer_available: (resource) => `${resource}-no-longer-available`,
  password_protected: (resource) => `${resource}-password-protected`,
  in_trash: (resource) => `${resource}-is-in-trash`,
  page_not_found: (resource) => `${resource}-archive-page-not-found`,
  unauthenticated: 'rest_forbidden',
  bad_credentials: 'rest_forbidden',
  forbidden: 'rest_forbidden',
  too_large: 'rest_request_too_large',
  too_many_requests: 'rest_too_many_requests',
  service_unavailable: 'rest_service_unavailable',
  request_timeout: 'rest_request_timeout',
  internal_error: 'rest_internal_error',
};

/** The contract's WordPress code of a domain error (`rest-event-not-found` …). */
export function wordpressCode(error: DomainError): string {
  const code = WORDPRESS_CODE[error.reason];
  if (typeof code === 'string') return code;
  // The factories of resource-specific reasons always name one; `post` is WordPress's own.
  return code(error.resource ?? 'post');
}

export interface RestError {
  status: number;
  body: {
    code: string;
    message: string;
    data: { status: number; params?: unknown; details?: unknown[] };
  };
}

export function restError(
  status: number,
  code: string,
  message: string,
  params?: unknown,
): RestError {
  const data: RestError['body']['data'] = { status };
  if (params !== undefined) data.params = params;
  // The reference's invalid-parameter errors carry an (always empty here) `details` list.
  if (code === 'rest_invalid_param') data.details = [];
  return { status, body: { code, message, data } };
}

export function noRoute(): RestError {
  return restError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
}

export function internalError(): RestError {
  return restError(500, 'rest_internal_error', 'Unexpected error.');
}

interface ErrorLike {
  message: string;
}

/**
 * GraphQL's own variable coercion errors, should a value slip past `coerce.ts`:
 * `Variable "$input" got invalid value 5 at "input.title"; String cannot represent …`.
 */
const VARIABLE_ERROR =
  /^Variable "\$(\w+)" got invalid value .*?(?: at "\w+((?:\.\w+|\[\d+\])*)")?;\s*(.*)$/s;

function paramOfVariable(variable: string, path: string): string {
  const first = /^\.(\w+)/.exec(path);
  return variable === 'input' && first ? first[1]! : variable;
}

/** The envelope of a domain error: its status, WordPress code, message and parameters. */
function fromDomainError(error: DomainError): RestError {
  return restError(statusOf(error.code), wordpressCode(error), error.message, error.data.params);
}

/**
 * Maps one GraphQL error of a result to the envelope: the domain error it stands for, or
 * GraphQL's own variable errors; null for anything else.
 */
export function fromGraphQLError(error: ErrorLike): RestError | null {
  const domain = domainErrorOf(error);
  if (domain) return fromDomainError(domain);
  const variable = VARIABLE_ERROR.exec(error.message);
  if (variable) {
    const name = paramOfVariable(variable[1]!, variable[2] ?? '');
    return restError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, {
      [name]: variable[3] || 'Invalid parameter.',
    });
  }
  return null;
}

/**
 * Any thrown value: domain errors keep their code (also as GraphQL errors: those of the context
 * come mapped by Yoga's pipeline); an unreachable database (met while building the context, say)
 * is a 503; anything else is a 500 (the caller logs it).
 */
export function fromThrown(error: unknown): RestError | null {
  const domain = domainErrorOf(error);
  if (domain) return fromDomainError(domain);
  if (isDatabaseUnavailable(error)) return fromDomainError(serviceUnavailable());
  return null;
}
