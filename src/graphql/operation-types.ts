import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

/**
 * Refuses an operation whose root type the schema lacks (a `subscription`: there are none yet;
 * when there are, they will run over SSE). graphql-js 16 has no such rule (17 adds
 * `KnownOperationTypesRule`), so the operation used to reach execution and fail there as an
 * unexpected error. A 400 for every client, `application/json` ones included (`spec: false`):
 * the request can never succeed, whatever the media type.
 */
export function knownOperationTypes(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (context.getSchema().getRootType(node.operation)) return;
      context.reportError(
        new GraphQLError(
          `The schema has no ${node.operation} type: ${node.operation} operations are not supported.`,
          {
            nodes: node,
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400, spec: false } },
          },
        ),
      );
    },
  };
}
