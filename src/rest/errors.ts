import { GraphQLError } from 'graphql';
import { isDatabaseUnavailable } from '../db/errors';
import { serviceUnavailable, statusOf } from '../lib/errors';

/**
 * Every REST failure as the contract's envelope (CONTRACT §5):
 * `{"code", "message", "data": {"status", "params"?, "details"?}}`. The status comes from
 * `statusOf(extensions.code)` and the code from `extensions.rest_code`, so services decide both.
 */

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
  extensions?: Record<string, unknown>;
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

/** Maps one GraphQL error (from a result, or thrown by the context factory) to the envelope. */
export function fromGraphQLError(error: ErrorLike): RestError | null {
  const ext = error.extensions ?? {};
  if (typeof ext.rest_code === 'string' && typeof ext.code === 'string') {
    return restError(statusOf(ext.code), ext.rest_code, error.message, ext.params);
  }
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
 * Any thrown value: AppErrors keep their code; an unreachable database (met while building the
 * context, say) is a 503; anything else is a 500 (the caller logs it).
 */
export function fromThrown(error: unknown): RestError | null {
  if (error instanceof GraphQLError) return fromGraphQLError(error);
  if (isDatabaseUnavailable(error)) return fromGraphQLError(serviceUnavailable());
  return null;
}
