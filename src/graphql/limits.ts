import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { InvalidParamError } from '../lib';
import { maxDepthRule } from './depth';
import { toGraphQLError } from './errors';

/**
 * Limits on GraphQL documents and variables (docs/graphql.md "Limits"), with the
 * well-kept rules of GraphQL Armor:
 *
 * - tokens (`GRAPHQL_MAX_TOKENS`), checked while parsing, so a huge document is refused before
 *   any tree is built: `Syntax Error: Token limit of N exceeded.`;
 * - depth (`GRAPHQL_MAX_DEPTH`, ./depth.ts, where Relay's `edges { node }` is no level):
 *   `events { venue { events { venue … } } }` past the limit → `QUERY_TOO_DEEP`;
 * - aliases (`GRAPHQL_MAX_ALIASES`), the cheap way to multiply work → `TOO_MANY_ALIASES`;
 * - list length (`MAX_ARRAY_LENGTH`) in literal arguments and in variables (any depth, JSON
 *   values included) → 400 `rest_invalid_param` / `BAD_USER_INPUT` naming the parameter.
 *
 * The cost of an operation (page sizes multiplied through its nesting, per caller) is estimated
 * once the caller and the variables are known, in `useOperationBudget` (src/graphql/budget.ts).
 *
 * Document errors are validation errors (`extensions.code` as above, plus `extensions.limit` and
 * `extensions.found`), answered as the GraphQL-over-HTTP spec says: HTTP 400 to clients that
 * accept `application/graphql-response+json`, 200 with `errors` and no `data` to plain
 * `application/json` clients. The REST adapter runs fixed operations that stay
 * well inside the document limits (a test proves it) and its lists meet the same length check.
 */

export interface GraphqlLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxArrayLength: number;
}

export function graphqlLimits(config: Config): GraphqlLimits {
  return {
    maxDepth: config.graphqlMaxDepth,
    maxAliases: config.graphqlMaxAliases,
    maxTokens: config.graphqlMaxTokens,
    maxArrayLength: config.maxArrayLength,
  };
}

type Reject = (context: ValidationContext | null, error: GraphQLError) => void;

/** Reports a rejection as a validation error with a clear message and a stable code. */
function reporter(code: string, limit: number, describe: (found: string) => string): Reject {
  return (context, error) => {
    const found = /found (\d+(?:\.\d+)?)/.exec(error.message)?.[1] ?? '?';
    context?.reportError(
      new GraphQLError(describe(found), {
        extensions: { code, limit, found: Number(found) },
      }),
    );
  };
}

/** The validation rules of the document limits (also used to check the REST operations). */
export function documentRules(limits: GraphqlLimits): ValidationRule[] {
  return [
    maxDepthRule(
      limits.maxDepth,
      (found) =>
        `The query is nested ${found} levels deep; the limit is ${limits.maxDepth}. Ask for fewer nested levels (events { venue { events … } } and the like).`,
    ),
    maxAliasesRule({
      n: limits.maxAliases,
      propagateOnRejection: false,
      onReject: [
        reporter(
          'TOO_MANY_ALIASES',
          limits.maxAliases,
          (found) =>
            `The query uses ${found} aliases; the limit is ${limits.maxAliases}. Split it into several requests.`,
        ),
      ],
    }) as unknown as ValidationRule,
    listLengthRule(limits.maxArrayLength),
  ];
}

/** Literal lists in the document (`include: [1, 2, …]`) longer than the limit. */
function listLengthRule(max: number): ValidationRule {
  return (context): ASTVisitor => ({
    Argument(node) {
      const tooLong = longestList(node.value) > max;
      if (tooLong) {
        context.reportError(
          new GraphQLError(`${node.name.value} has more than ${max} items; the limit is ${max}.`, {
            nodes: [node],
            extensions: {
              code: 'BAD_USER_INPUT',
              params: { [node.name.value]: `has more than ${max} items` },
            },
          }),
        );
      }
    },
  });
}

function longestList(value: import('graphql').ValueNode): number {
  let longest = 0;
  const stack = [value];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.kind === Kind.LIST) {
      longest = Math.max(longest, node.values.length);
      stack.push(...node.values);
    } else if (node.kind === Kind.OBJECT) {
      for (const field of node.fields) stack.push(field.value);
    }
  }
  return longest;
}

/**
 * The first list in `variables` longer than `max`, as the parameter it belongs to: the first
 * key below `input` for write inputs (`categories`), else the variable's name. Iterative, so no
 * nesting depth can overflow the stack.
 */
export function overlongList(
  variables: Record<string, unknown>,
  max: number,
): { param: string; length: number } | null {
  const stack: { value: unknown; param: string | null; top: string }[] = Object.entries(
    variables,
  ).map(([name, value]) => ({ value, param: name === 'input' ? null : name, top: name }));
  while (stack.length) {
    const { value, param, top } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      if (value.length > max) return { param: param ?? top, length: value.length };
      for (const item of value) stack.push({ value: item, param: param ?? top, top });
    } else {
      for (const [key, item] of Object.entries(value)) {
        stack.push({ value: item, param: param ?? key, top });
      }
    }
  }
  return null;
}

export function listTooLong(param: string, length: number, max: number): InvalidParamError {
  return new InvalidParamError({
    [param]: `${param} has ${length} items; at most ${max} are allowed.`,
  });
}

/** The document and variable limits as one Yoga plugin. */
export function useGraphqlLimits(limits: GraphqlLimits): Plugin {
  const rules = documentRules(limits);
  const tokens = maxTokensPlugin({ n: limits.maxTokens }) as unknown as Plugin;
  return {
    onParse: tokens.onParse,
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const found = overlongList(variables, limits.maxArrayLength);
      if (found) {
        setResultAndStopExecution({
          // Later hooks (the mapping of domain errors among them) do not run: map it here.
          errors: [toGraphQLError(listTooLong(found.param, found.length, limits.maxArrayLength))],
        });
      }
    },
  };
}
