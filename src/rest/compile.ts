import { buildOperationNodeForField } from '@graphql-tools/utils';
import {
  GraphQLString,
  Kind,
  OperationTypeNode,
  TypeInfo,
  getNamedType,
  isInputObjectType,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { NESTED_TERM_KEYS } from './present';
import type { RouteRow } from './routes';

/**
 * Prepares the route table once, at start-up: each row's GraphQL operation (generated from the
 * schema with graphql-tools' `buildOperationNodeForField`, the generator sofa-api uses, minus
 * the GraphQL-only fields), validated against the schema, and its parameter list derived from
 * the field's arguments and input fields. Requests only look things up here: no parse or
 * validate per request (the REST plugin compiles the operations it executes, src/rest/jit.ts).
 */

/** GraphQL-only fields that REST bodies never carry. */
export const GRAPHQL_ONLY = new Set([
  'Event.post_parent',
  'Event.parent',
  'Venue.events',
  'Organizer.events',
  'Category.parent_category',
  'Category.children',
  'Category.events',
  'Tag.events',
  // Typed times and global ids (schema/time.graphql, node.graphql); lookups of GraphQL clients.
  ...['Event', 'Venue', 'Organizer'].flatMap((t) => [`${t}.published_at`, `${t}.modified_at`]),
  'Event.starts_at',
  'Event.ends_at',
  ...['Event', 'Venue', 'Organizer', 'Category', 'Tag'].map((t) => `${t}.node_id`),
  'Query.node',
  'Query.nodes',
  // Relay connections (schema/connections.graphql): cursors are for GraphQL clients.
  ...['events', 'venues', 'organizers', 'categories', 'tags'].map((l) => `Query.${l}_connection`),
  ...['organizers', 'categories', 'tags'].map((l) => `Event.${l}_connection`),
  ...['Venue', 'Organizer', 'Category', 'Tag'].map((t) => `${t}.events_connection`),
]);

/**
 * Fields REST bodies carry rendered as the reference renders them (docs/contract.md §4,
 * "Rendering on output"): the operation selects the rendered field under the raw field's name and
 * at its place (`description: description_rendered`), so the raw one is not resolved at all.
 */
export const RENDERED_AS: ReadonlyMap<string, string> = new Map([
  ['Event.title', 'title_rendered'],
  ['Event.description', 'description_rendered'],
  ['Event.excerpt', 'excerpt_rendered'],
  ['Venue.venue', 'venue_rendered'],
  ['Venue.description', 'description_rendered'],
  ['Venue.excerpt', 'excerpt_rendered'],
  ['Organizer.organizer', 'organizer_rendered'],
  ['Organizer.description', 'description_rendered'],
  ['Organizer.excerpt', 'excerpt_rendered'],
]);

/** The rendered fields themselves: REST bodies carry them only under the raw names. */
export const RENDERED_ONLY: ReadonlySet<string> = new Set(
  [...RENDERED_AS].map(([raw, rendered]) => `${raw.slice(0, raw.indexOf('.'))}.${rendered}`),
);

/**
 * Where the REST body carries only some fields of a type: an event's categories and tags are
 * WordPress's raw term shape, without the term's `url` and `meta` (a category's URL walks its
 * ancestors: a query per page for a value the presenter would drop).
 */
const ONLY_FIELDS = new Map<string, ReadonlySet<string>>([
  ['Event.categories', new Set(NESTED_TERM_KEYS)],
  ['Event.tags', new Set(NESTED_TERM_KEYS)],
]);

export interface ParamSpec {
  name: string;
  /** Where the contract expects it (documentation; any source is read). */
  in: 'path' | 'query' | 'body';
  /** `argument`: a variable of the same name; `input`: a field of the `input` variable. */
  target: 'argument' | 'input';
  type: GraphQLInputType;
  description: string;
  required: boolean;
  default?: unknown;
  /** Accepted values beyond the GraphQL type (parameters of `GET /`). */
  enum?: string[];
}

export interface CompiledRoute {
  row: RouteRow;
  /** Matches the path below the namespace (no trailing slash). */
  pattern: RegExp;
  params: ParamSpec[];
  /** The prepared operation; absent for `/` and `/doc`. */
  document?: DocumentNode;
  /** Name of the root field, i.e. the key of the result in `data`. */
  field?: string;
}

export function compileRoutes(schema: GraphQLSchema, rows: readonly RouteRow[]): CompiledRoute[] {
  return rows.map((row) => compileRoute(schema, row));
}

function compileRoute(schema: GraphQLSchema, row: RouteRow): CompiledRoute {
  const pattern = new RegExp(`^${row.path.replace(/\(\?P</g, '(?<')}$`);
  if (!row.operation) return { row, pattern, params: notedParams(row) };
  const { type, field: name } = row.operation;
  const root = type === 'query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[name];
  if (!field) throw new Error(`REST route ${row.path}: no GraphQL field ${type}.${name}.`);
  const document = prepareOperation(schema, type, name);
  return { row, pattern, params: paramsOf(row, field), document, field: name };
}

/** The operation selecting every REST field of the result, validated. */
function prepareOperation(
  schema: GraphQLSchema,
  type: 'query' | 'mutation',
  field: string,
): DocumentNode {
  const generated = buildOperationNodeForField({
    schema,
    kind: type === 'query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
    field,
    circularReferenceDepth: 1,
  });
  const typeInfo = new TypeInfo(schema);
  const stripped = visit(
    generated,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        const key = parent ? `${parent.name}.${node.name.value}` : '';
        if (GRAPHQL_ONLY.has(key) || RENDERED_ONLY.has(key)) return null;
        const rendered = RENDERED_AS.get(key);
        if (rendered) {
          return { ...node, alias: node.name, name: { kind: Kind.NAME, value: rendered } };
        }
        const only = ONLY_FIELDS.get(key);
        if (!only || !node.selectionSet) return undefined;
        const selections = node.selectionSet.selections.filter(
          (s) => s.kind !== Kind.FIELD || only.has(s.name.value),
        );
        return { ...node, selectionSet: { ...node.selectionSet, selections } };
      },
    }),
  );
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [withUsedVariables(stripped)],
  };
  const errors = validate(schema, document);
  if (errors.length) {
    throw new Error(
      `REST operation ${field} is invalid: ${errors.map((e) => e.message).join('; ')}`,
    );
  }
  return document;
}

/**
 * Keeps the variables still used, without defaults: an argument the request does not send is
 * absent (its SDL default applies and resolvers can tell it was not given).
 */
function withUsedVariables(operation: OperationDefinitionNode): OperationDefinitionNode {
  const used = new Set<string>();
  visit(operation.selectionSet, {
    Variable(node) {
      used.add(node.name.value);
    },
  });
  return {
    ...operation,
    variableDefinitions: (operation.variableDefinitions ?? [])
      .filter((v) => used.has(v.variable.name.value))
      .map((v) => ({ ...v, defaultValue: undefined })),
  };
}

function pathNames(row: RouteRow): string[] {
  return [...row.path.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]!);
}

function paramsOf(row: RouteRow, field: GraphQLField<unknown, unknown>): ParamSpec[] {
  const inPath = pathNames(row);
  const required = new Set(row.required ?? []);
  const note = (name: string) => row.notes?.[name] ?? {};
  const params: ParamSpec[] = [];
  for (const arg of field.args) {
    if (arg.name === row.input) {
      const input = getNamedType(arg.type);
      if (!isInputObjectType(input)) throw new Error(`${field.name}.${arg.name} is no input type`);
      for (const f of Object.values(input.getFields())) {
        params.push({
          name: f.name,
          in: 'body',
          target: 'input',
          type: f.type,
          description: note(f.name).description ?? f.description ?? '',
          required: required.has(f.name),
          ...withDefault(note(f.name).default ?? f.defaultValue),
        });
      }
      continue;
    }
    const isPath = inPath.includes(arg.name);
    params.push({
      name: arg.name,
      in: isPath
        ? 'path'
        : row.operation?.type === 'query' || row.methods.includes('DELETE')
          ? 'query'
          : 'body',
      target: 'argument',
      type: arg.type,
      description: note(arg.name).description ?? arg.description ?? '',
      required: isPath || required.has(arg.name),
      ...withDefault(note(arg.name).default ?? arg.defaultValue),
    });
  }
  return params;
}

function withDefault(value: unknown): { default?: unknown } {
  return value === undefined ? {} : { default: value };
}

/** Parameters of the routes the adapter answers itself (`GET /`), from their notes. */
function notedParams(row: RouteRow): ParamSpec[] {
  return Object.entries(row.notes ?? {}).map(([name, note]) => ({
    name,
    in: 'query',
    target: 'argument',
    type: GraphQLString,
    description: note.description ?? '',
    required: false,
    ...withDefault(note.default),
    ...(note.enum ? { enum: note.enum } : {}),
  }));
}
