import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  typeFromAST,
  TypeInfo,
  ValidationContext,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import {
  createComplexityRule,
  simpleEstimator,
  type ComplexityEstimator,
} from 'graphql-query-complexity';

/**
 * What a GraphQL operation will cost, estimated before it runs (graphql-query-complexity): about
 * the rows it may read, so that the work nested pages multiply is counted, not the depth.
 *
 * - A paginated list (a field with a `per_page`, `first` or `last` argument: `events`, `tags`,
 *   `Venue.events`, `events_connection`, `Venue.events_connection`, …) costs `PAGE_WEIGHT` (its
 *   count and page statements) plus its page size times the cost of what is selected in each
 *   page. The page size is the argument (variables and SDL defaults resolved, capped at
 *   PER_PAGE_MAX; a connection's `first`, else its `last`) or PER_PAGE_DEFAULT when absent.
 * - A connection's wrappers (`edges`, an edge, `page_info`) read nothing themselves: an edge
 *   costs its `node`, the page size multiplying it as it multiplies a list page's rows.
 * - Each row (an object: a page's rows, `Event.venue`, …) costs `ROW_WEIGHT` plus its selection.
 * - Lists that are not paginated (an event's organizers, categories and tags, a category's
 *   children) are counted as `LINKED_ROWS` rows each.
 * - Scalars cost nothing but their weight in `FIELD_WEIGHTS` (writes; JSON-LD).
 * - Every alias and fragment is counted where it is used; skipped fields (`@skip`, `@include`)
 *   are not.
 * - Introspection costs nothing: it reads no table.
 *
 * `tags(per_page:50){tags{events(per_page:50){events{organizer{events(per_page:50){total}}}}}}`
 * costs 2 + 50 × (1 + 2 + 50 × (1 + 3 × (1 + 2))) = 25,152; a page of 50 events with their
 * venue, organizers, categories and tags about 1,100.
 */

/** A page's count and page statements. */
export const PAGE_WEIGHT = 2;
/** One row read (or one loader lookup). */
export const ROW_WEIGHT = 1;
/** Rows assumed for a list that has no page size. */
export const LINKED_ROWS = 3;
/** A write: a transaction of several statements. */
const WRITE_WEIGHT = 10;

/** Extra weights of single fields, `Type.field`; every mutation weighs `WRITE_WEIGHT`. */
const FIELD_WEIGHTS: Record<string, number> = {
  'Event.json_ld': ROW_WEIGHT,
  'Venue.json_ld': ROW_WEIGHT,
  'Organizer.json_ld': ROW_WEIGHT,
  // One GROUP BY over every event of the filter (schema/counts.graphql): a page's count, or more.
  'Query.event_counts': 50,
};

/** Arguments that set a list's page size. */
const PAGE_ARGS = new Set(['per_page', 'first', 'last']);

/** Connection wrappers: objects that hold rows but are no row read (`EventEdge`, `PageInfo`). */
function isWrapper(typeName: string): boolean {
  return typeName === 'PageInfo' || typeName.endsWith('Edge');
}

export interface CostSettings {
  perPageDefault: number;
  perPageMax: number;
}

/** The page size a list will use: the argument capped as `paging` caps it, else the default. */
function pageSize(asked: unknown, settings: CostSettings): number {
  if (typeof asked !== 'number' || !Number.isFinite(asked)) return settings.perPageDefault;
  return Math.min(Math.max(Math.trunc(asked), 1), settings.perPageMax);
}

/** `pages`: the page types (`EventList`, `TagList`, …), whose row lists the page size multiplies. */
function weighted(settings: CostSettings, pages: ReadonlySet<string>): ComplexityEstimator {
  return ({ type, field, args, childComplexity }) => {
    // Introspection (GraphiQL, code generators) reads the schema, not the database.
    if (type.name.startsWith('__') || field.name.startsWith('__')) return 0;
    const weight =
      (type.name === 'Mutation' ? WRITE_WEIGHT : 0) +
      (FIELD_WEIGHTS[`${type.name}.${field.name}`] ?? 0);
    const pageArgs = field.args.filter((a) => PAGE_ARGS.has(a.name));
    if (pageArgs.length) {
      // A connection pages by `first` or `last` (never both): the one given, else the default.
      const asked = pageArgs.map((a) => args[a.name]).find((v) => typeof v === 'number');
      return weight + PAGE_WEIGHT + pageSize(asked, settings) * childComplexity;
    }
    // Unweighted scalars: the next estimator's (`simpleEstimator`, 0).
    if (isLeafType(getNamedType(field.type))) return weight || undefined;
    if (isWrapper(getNamedType(field.type).name)) return weight + childComplexity;
    const row = weight + ROW_WEIGHT + childComplexity;
    // `nodes(ids:)`: one row per id asked (schema/node.graphql).
    if (field.name === 'nodes' && Array.isArray(args.ids)) return args.ids.length * row;
    if (!isListType(getNullableType(field.type))) return row;
    // A page's own rows: the page size already multiplies them.
    return pages.has(type.name) ? row : LINKED_ROWS * row;
  };
}

/** The types of the paginated fields, per schema. */
const pageTypes = new WeakMap<GraphQLSchema, Set<string>>();

function pagesOf(schema: GraphQLSchema): Set<string> {
  let pages = pageTypes.get(schema);
  if (!pages) {
    pages = new Set();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!('getFields' in type) || isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if ('args' in field && field.args.some((a) => PAGE_ARGS.has(a.name))) {
          pages.add(getNamedType(field.type).name);
        }
      }
    }
    pageTypes.set(schema, pages);
  }
  return pages;
}

/** Thrown when the document is too large to estimate (the library's node limit). */
export class CostTooLargeToEstimate extends Error {}

/**
 * The estimated cost of the operation `operationName` of `document` (all of them when it is
 * not named) with these variables. Fields whose arguments cannot be read add nothing: execution
 * refuses them before their resolver runs; with unusable variables nothing runs and the cost is 0.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | null | undefined,
  settings: CostSettings,
): number {
  const typeInfo = new TypeInfo(schema);
  const context = new ValidationContext(schema, document, typeInfo, () => {});
  let cost = 0;
  const visitor = createComplexityRule({
    maximumComplexity: Infinity,
    estimators: [weighted(settings, pagesOf(schema)), simpleEstimator({ defaultComplexity: 0 })],
    variables: variables ?? {},
    ...(operationName ? { operationName } : {}),
    // Called as each operation ends, with the running total.
    onComplete: (complexity) => (cost = complexity),
  })(context);
  try {
    visit(document, visitWithTypeInfo(typeInfo, visitor));
  } catch (error) {
    // `Query exceeds the maximum allowed number of nodes.`: fragments spread over and over.
    throw new CostTooLargeToEstimate((error as Error).message);
  }
  return Math.ceil(cost);
}

/**
 * Variables that make a fixed operation (a REST route's) as costly as a request can make it:
 * page sizes at PER_PAGE_MAX, every required variable a smallest valid value.
 */
export function worstCaseVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  settings: CostSettings,
): Record<string, unknown> {
  const paging = new Set<string>();
  visit(operation, {
    Argument(node) {
      if (PAGE_ARGS.has(node.name.value) && node.value.kind === Kind.VARIABLE) {
        paging.add(node.value.name.value);
      }
    },
  });
  const values: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (paging.has(name)) values[name] = settings.perPageMax;
    else if (type && isNonNullType(type)) values[name] = sample(type.ofType);
  }
  return values;
}

/** A smallest valid value of an input type. */
function sample(type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [];
  if (isEnumType(inner)) return inner.getValues()[0]?.value;
  if (isInputObjectType(inner)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(inner.getFields())) {
      if (isNonNullType(field.type) && field.defaultValue === undefined) {
        value[field.name] = sample(field.type);
      }
    }
    return value;
  }
  if (isScalarType(inner)) {
    if (inner.name === 'Int' || inner.name === 'Float') return 1;
    if (inner.name === 'Boolean') return false;
    return '1';
  }
  return null;
}
