import { GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { budgetError, RequestBudget, withinBudget, type AppContext } from '../context';
import { CostTooLargeToEstimate, operationCost, type CostSettings } from './cost';

/**
 * The budgets of a GraphQL operation on /graphql (and the SOFA view), as one Yoga plugin:
 *
 * - before it runs, once the caller and the variables are known (after authentication, before
 *   any other SQL), its estimated cost (src/graphql/cost.ts) must fit the caller's budget:
 *   GRAPHQL_COST_ANONYMOUS or GRAPHQL_COST_AUTHENTICATED; otherwise nothing runs and the answer
 *   is `COST_LIMIT_EXCEEDED` (HTTP 400 to `application/graphql-response+json` clients, 200 to
 *   `application/json` ones, as for the other document limits);
 * - while it runs, its SQL statements are charged to the request's runtime budget
 *   (src/context/budget.ts: REQUEST_MAX_STATEMENTS, REQUEST_TIMEOUT_MS); once that is spent the
 *   answer is one error, `REQUEST_TIMEOUT` or `STATEMENT_LIMIT_EXCEEDED`, HTTP 503, whatever
 *   partial data the operation had.
 *
 * The REST routes run fixed operations whose worst case fits the anonymous budget (a test
 * proves it for every route at PER_PAGE_MAX); their statements are charged the same way
 * (src/rest/plugin.ts).
 */

export interface CostBudgets extends CostSettings {
  anonymous: number;
  authenticated: number;
}

export function costBudgets(config: Config): CostBudgets {
  return {
    anonymous: config.graphqlCostAnonymous,
    authenticated: config.graphqlCostAuthenticated,
    perPageDefault: config.perPageDefault,
    perPageMax: config.perPageMax,
  };
}

function costError(found: number | null, limit: number, anonymous: boolean): GraphQLError {
  const who = anonymous ? 'anonymous callers' : 'authenticated callers';
  const cost = found === null ? 'cannot be estimated (too many fields)' : `is ${found}`;
  return new GraphQLError(
    `The query's estimated cost ${cost}; the limit for ${who} is ${limit}. Ask for smaller pages (per_page) or fewer nested lists, or split the query.`,
    {
      extensions: {
        code: 'COST_LIMIT_EXCEEDED',
        limit,
        ...(found === null ? {} : { found }),
        http: { status: 400, spec: true },
      },
    },
  );
}

/** The one error of an operation whose runtime budget ran out. */
function spentError(budget: RequestBudget): GraphQLError {
  const deadline = budget.tripped === 'deadline';
  return new GraphQLError(budgetError(budget).message, {
    extensions: {
      code: deadline ? 'REQUEST_TIMEOUT' : 'STATEMENT_LIMIT_EXCEEDED',
      ...(deadline ? {} : { limit: budget.maxStatements }),
      http: { status: 503, ...(deadline ? { headers: { 'Retry-After': '1' } } : {}) },
    },
  });
}

/** Variables longer than this (as JSON) are estimated every time rather than remembered. */
const CACHED_VARIABLES = 2048;
/** Estimates remembered per parsed document (Yoga keeps parsed documents in its cache). */
const CACHED_PER_DOCUMENT = 32;

export function useOperationBudget(budgets: CostBudgets): Plugin {
  let schema: GraphQLSchema | undefined;
  // A flood of one document (the same attack again and again) is estimated once.
  const estimates = new WeakMap<DocumentNode, Map<string, number | null>>();

  function estimate(
    current: GraphQLSchema,
    document: DocumentNode,
    variables: Record<string, unknown> | undefined,
    operationName: string | null | undefined,
  ): number | null {
    const json = JSON.stringify(variables ?? {});
    const key = json.length <= CACHED_VARIABLES ? `${operationName ?? ''} ${json}` : null;
    const known = key === null ? undefined : estimates.get(document)?.get(key);
    if (known !== undefined) return known;
    let found: number | null;
    try {
      found = operationCost(current, document, variables, operationName, budgets);
    } catch (error) {
      if (!(error instanceof CostTooLargeToEstimate)) throw error;
      found = null;
    }
    if (key !== null) {
      const kept = estimates.get(document) ?? new Map<string, number | null>();
      if (kept.size >= CACHED_PER_DOCUMENT) kept.clear();
      kept.set(key, found);
      estimates.set(document, kept);
    }
    return found;
  }

  return {
    onSchemaChange({ schema: current }) {
      schema = current;
    },
    instrumentation: {
      // Statements sent while the operation runs (its `onExecute` hooks included) are charged.
      execute: ({ context }, wrapped) =>
        withinBudget((context as Partial<AppContext>).budget ?? RequestBudget.unlimited(), wrapped),
    },
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as unknown as AppContext;
      const anonymous = ctx.viewer.user === null;
      const limit = anonymous ? budgets.anonymous : budgets.authenticated;
      const found = estimate(
        schema ?? args.schema,
        args.document,
        args.variableValues ?? undefined,
        args.operationName,
      );
      if (found === null || found > limit) {
        setResultAndStopExecution({ errors: [costError(found, limit, anonymous)] });
        return;
      }
      return {
        onExecuteDone({ result, setResult }) {
          // A spent budget made every later statement fail: answer that, once.
          if (ctx.budget?.tripped && !(Symbol.asyncIterator in result)) {
            setResult({ errors: [spentError(ctx.budget)] });
          }
        },
      };
    },
  };
}
