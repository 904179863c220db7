import {
  GraphQLError,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type ASTVisitor,
  type GraphQLNamedType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/**
 * `GRAPHQL_MAX_DEPTH`: how many levels of records a document nests, `events { venue { events … } } }`.
 *
 * Relay plumbing is not a level: `edges` of a `…Connection` and `node` of an `…Edge` only wrap
 * the records of the level above, so `venues_connection { edges { node { events_connection … } } }`
 * nests as deep as `venues { events … }`. (GraphQL Armor's depth rule counts every field, which
 * made two nested connections cost as much depth as five nested lists.) Fragments count where
 * they are spread; introspection (`__schema`) is not counted. The work a document asks for is
 * bounded separately, by the cost estimate (src/graphql/cost.ts).
 */
export function maxDepthRule(limit: number, describe: (found: number) => string): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const root = context.getSchema().getRootType(operation.operation);
      if (!root) return;
      const found = depthOf(context, operation.selectionSet, root, new Set());
      if (found > limit) {
        context.reportError(
          new GraphQLError(describe(found), {
            nodes: [operation],
            extensions: { code: 'QUERY_TOO_DEEP', limit, found },
          }),
        );
      }
    },
  });
}

function isPlumbing(parent: GraphQLNamedType, field: string): boolean {
  return (
    (field === 'edges' && parent.name.endsWith('Connection')) ||
    (field === 'node' && parent.name.endsWith('Edge'))
  );
}

function depthOf(
  context: ValidationContext,
  selections: SelectionSetNode,
  parent: GraphQLNamedType | undefined,
  spreading: Set<string>,
): number {
  let deepest = 0;
  for (const selection of selections.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === '__schema') continue;
      const field =
        parent && (isObjectType(parent) || isInterfaceType(parent))
          ? parent.getFields()[selection.name.value]
          : undefined;
      const type = field ? getNamedType(field.type) : undefined;
      const own = parent && isPlumbing(parent, selection.name.value) ? 0 : 1;
      const below = selection.selectionSet
        ? depthOf(context, selection.selectionSet, type, spreading)
        : 0;
      deepest = Math.max(deepest, own + below);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition
        ? context.getSchema().getType(selection.typeCondition.name.value)
        : parent;
      deepest = Math.max(deepest, depthOf(context, selection.selectionSet, condition, spreading));
    } else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      // A fragment spreading itself is another rule's error (NoFragmentCycles); stop here.
      if (!fragment || spreading.has(name)) continue;
      spreading.add(name);
      const condition = context.getSchema().getType(fragment.typeCondition.name.value);
      deepest = Math.max(deepest, depthOf(context, fragment.selectionSet, condition, spreading));
      spreading.delete(name);
    }
  }
  return deepest;
}
