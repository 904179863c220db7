import { getNamedType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { READ_SECURITY, SECURITY_SCHEMES, WRITE_SECURITY } from './security';
import { ref, type Schema } from './wire';

/**
 * The SOFA view's `openapi.json` (docs/bi.md "The SOFA view"), finished where sofa-api leaves it
 * short of what OpenAPI tools expect (`redocly lint`, recommended rules): every operation gets a
 * summary and description from its GraphQL field, the security it takes and the 4xx answers the
 * view gives (`sofa.ts` errorHandler), mutations an operationId; a `$ref` with siblings is wrapped in `allOf` (OpenAPI 3.0
 * ignores siblings of `$ref`); the root types, which no route answers, are dropped. Applied once
 * per schema, to the document sofa-api generates.
 */

type Field = GraphQLField<unknown, unknown>;

/** Records whose visibility is checked: reading one the caller may not see is a 403. */
const POSTS = new Set(['Event', 'Venue', 'Organizer']);

/** The view's error body: GraphQL's `errors`, each with its code (`sofa.ts` errorHandler). */
const ERRORS: Schema = {
  type: 'object',
  description: 'Every failure: the GraphQL errors, the HTTP status being that of the worst.',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message'],
        properties: {
          message: { type: 'string', description: 'What went wrong, in one sentence.' },
          locations: {
            type: 'array',
            items: {
              type: 'object',
              properties: { line: { type: 'integer' }, column: { type: 'integer' } },
            },
            description: 'Where in the generated GraphQL operation, when known.',
          },
          path: {
            type: 'array',
            items: {},
            description: 'The field that failed, when one did.',
          },
          extensions: {
            type: 'object',
            description:
              '`code` (e.g. `BAD_USER_INPUT`, `NOT_FOUND`), `rest_code` (the contract’s code, ' +
              'e.g. `rest_invalid_param`) and, for invalid parameters, `params`.',
            properties: {
              code: { type: 'string', description: 'GraphQL error code.' },
              rest_code: { type: 'string', description: 'The REST contract’s error code.' },
              params: {
                type: 'object',
                additionalProperties: { type: 'string' },
                description: 'Invalid parameters, name → reason.',
              },
            },
          },
        },
      },
    },
  },
};

const ERRORS_NAME = 'SofaErrors';

function error(description: string): Schema {
  return { description, content: { 'application/json': { schema: ref(ERRORS_NAME) } } };
}

/** `event-by-slug`, `event_by_slug`, `eventBySlug` → `eventbyslug`: sofa-api's route names. */
function routeKey(name: string): string {
  return name.replace(/[-_]/g, '').toLowerCase();
}

/** The GraphQL field an operation runs: GET a Query field, other methods a Mutation field. */
function fieldOf(schema: GraphQLSchema, path: string, method: string): Field | undefined {
  const type = method === 'get' ? schema.getQueryType() : schema.getMutationType();
  const segment = routeKey(path.split('/')[1] ?? '');
  return Object.values(type?.getFields() ?? {}).find((f) => routeKey(f.name) === segment);
}

/** The first sentence of a description. */
function firstSentence(text: string): string {
  return /^.*?[.!?](?=\s|$)/s.exec(text)?.[0] ?? text;
}

/** The 4xx answers of an operation, as the view gives them. */
function errorResponses(field: Field | undefined, method: string): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const args = field?.args ?? [];
  const write = method !== 'get';
  if (args.length || write) {
    out['400'] = error(
      'A parameter is missing or invalid (`BAD_USER_INPUT`; `rest_code` `rest_invalid_param`).',
    );
  }
  out['401'] = error(
    write
      ? 'No credentials, or credentials that are wrong or revoked (`UNAUTHENTICATED`).'
      : 'Credentials were sent but are wrong or revoked (`UNAUTHENTICATED`); send none to read ' +
          'as anonymous.',
  );
  // One record, named by id or slug (`/event/{id}`, `/event-by-slug`, `/update-event`).
  const single = args.some((arg) => arg.name === 'id' || arg.name === 'slug');
  const named = field ? getNamedType(field.type).name : '';
  if (write || (single && POSTS.has(named))) {
    out['403'] = error(
      write
        ? 'The caller may not do this (`FORBIDDEN`).'
        : 'The record is not visible to the caller (`FORBIDDEN`).',
    );
  }
  if (single) out['404'] = error('No record has this id or slug (`NOT_FOUND`).');
  return out;
}

/** `{$ref, description}` → `{description, allOf: [{$ref}]}`, everywhere in `node`. */
function wrapRefSiblings(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(wrapRefSiblings);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([k, v]) => [k, wrapRefSiblings(v)] as const);
  const object = Object.fromEntries(entries) as Schema;
  if (typeof object.$ref !== 'string' || entries.length === 1) return object;
  const { $ref, ...siblings } = object;
  return { ...siblings, allOf: [{ $ref }] };
}

export function finishSofaDocument(doc: Schema, schema: GraphQLSchema): Schema {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Schema>>;
  const finishedPaths: Record<string, Record<string, Schema>> = {};
  for (const [path, item] of Object.entries(paths)) {
    finishedPaths[path] = {};
    for (const [method, operation] of Object.entries(item)) {
      const field = fieldOf(schema, path, method);
      const description = (operation.description as string | undefined) || field?.description;
      const write = method !== 'get';
      finishedPaths[path][method] = {
        // sofa-api names query operations only (`events_query`).
        ...(field && !operation.operationId ? { operationId: `${field.name}_mutation` } : {}),
        ...operation,
        summary: description ? firstSentence(description) : `${method.toUpperCase()} ${path}`,
        ...(description ? { description } : {}),
        responses: {
          ...(operation.responses as Schema),
          ...errorResponses(field, method),
        },
        security: write ? WRITE_SECURITY : READ_SECURITY,
      };
    }
  }
  const components = (doc.components ?? {}) as Schema;
  const schemas = { ...(components.schemas as Schema) };
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (root) delete schemas[root.name];
  }
  return wrapRefSiblings({
    ...doc,
    components: {
      ...components,
      schemas: { ...schemas, [ERRORS_NAME]: ERRORS },
      securitySchemes: SECURITY_SCHEMES,
    },
    paths: finishedPaths,
  }) as Schema;
}
