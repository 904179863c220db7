import { restError } from '../rest/errors';

/**
 * An error answered by the HTTP layer itself (413, 414, 503 …), in the format of the API the
 * path belongs to: the contract's envelope `{code, message, data: {status}}` under API_ROOT and
 * everywhere else but GraphQL; a GraphQL response `{errors: [{message, extensions: {code}}]}` on
 * the GraphQL endpoint.
 */
export function errorResponse(
  ResponseCtor: typeof Response,
  url: URL,
  status: number,
  error: { rest: string; graphql: string; message: string },
  graphqlEndpoint = '/graphql',
): Response {
  const body =
    url.pathname === graphqlEndpoint
      ? { errors: [{ message: error.message, extensions: { code: error.graphql } }] }
      : restError(status, error.rest, error.message).body;
  return new ResponseCtor(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8' },
  });
}
