import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Every GraphQL error carries an `extensions.code`. graphql-js reports some request errors
 * without one: unusable variables (`Variable "$id" got invalid value "x"; …`) become
 * `BAD_USER_INPUT`, as services use for theirs; an operation the schema cannot run (a
 * subscription: there are none) `GRAPHQL_VALIDATION_FAILED`. The REST adapter, which maps
 * variable errors by their message, is unaffected.
 */
export function useErrorCodes(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          const coded = withCodes(result, 'BAD_USER_INPUT');
          if (coded) setResult(coded);
        },
      };
    },
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          const coded = withCodes(result, 'GRAPHQL_VALIDATION_FAILED');
          if (coded) setResult(coded);
        },
      };
    },
  };
}

/** The result with `code` on its errors that lack one; null when nothing changes. */
function withCodes(result: unknown, code: string): ExecutionResult | null {
  if (result === null || typeof result !== 'object' || !('errors' in result)) return null;
  const { errors } = result as ExecutionResult;
  if (!errors?.length || errors.every((error) => error.extensions?.code !== undefined)) {
    return null;
  }
  return {
    ...(result as ExecutionResult),
    errors: errors.map((error) =>
      error.extensions?.code !== undefined
        ? error
        : new GraphQLError(error.message, {
            nodes: error.nodes,
            source: error.source,
            positions: error.positions,
            path: error.path,
            originalError: error.originalError,
            extensions: { ...error.extensions, code },
          }),
    ),
  };
}
