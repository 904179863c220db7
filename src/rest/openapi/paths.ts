import { getNullableType, isListType, type GraphQLSchema } from 'graphql';
import type { CompiledRoute, ParamSpec } from '../compile';
import { inputSchema, ref, responseSchema, type Schema } from './schemas';
import { listHeaders } from '../respond';
import { templatePath, type HttpMethod } from '../routes';
import { READ_SECURITY, WRITE_SECURITY } from './security';

/**
 * `paths` of `GET /doc`, generated from the compiled route table: one path per row path (in
 * table order), one operation per method, parameters from the rows' `ParamSpec`s (the same
 * list that routing and coercion use), request bodies from the write inputs, responses from the
 * GraphQL return types and the error cases each kind of route has (docs/contract.md §8).
 */

/** Resources with a publishing life cycle: visibility checks (403) and the trash (410). */
const POSTS = new Set(['event', 'venue', 'organizer']);

const WRITE_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);

/** The list headers `respond.ts` sends, named from the function that sends them. */
const LIST_HEADERS: Schema = Object.fromEntries(
  Object.keys(listHeaders({ next_rest_url: 'n', previous_rest_url: 'p' })).map((name) => [
    name,
    name === 'Link'
      ? {
          description: 'Next and previous pages (rel="next", rel="prev").',
          schema: { type: 'string' },
        }
      : {
          description: name.endsWith('TotalPages')
            ? 'Number of pages.'
            : 'Number of matching records.',
          schema: { type: 'integer' },
        },
  ]),
);

export function openApiPaths(
  schema: GraphQLSchema,
  routes: readonly CompiledRoute[],
): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.row.path === '') continue; // `GET /` describes the namespace, not an operation
    const path = templatePath(route.row.path);
    for (const method of route.row.methods) {
      paths[path] = { ...paths[path], [method.toLowerCase()]: operation(schema, route, method) };
    }
  }
  return paths;
}

function operation(schema: GraphQLSchema, route: CompiledRoute, method: HttpMethod): Schema {
  const { row } = route;
  const field = row.operation
    ? (row.operation.type === 'query'
        ? schema.getQueryType()
        : schema.getMutationType()
      )?.getFields()[row.operation.field]
    : undefined;
  const write = WRITE_METHODS.has(method);
  const parameters = route.params.filter((p) => p.in !== 'body').map(parameter);
  const body = route.params.filter((p) => p.in === 'body');
  return {
    operationId: operationId(method, templatePath(row.path)),
    summary: row.summary,
    ...(field?.description ? { description: field.description } : {}),
    tags: [row.path.split('/')[1] ?? ''],
    ...(parameters.length ? { parameters } : {}),
    ...(write && body.length ? { requestBody: requestBody(body) } : {}),
    responses: {
      [String(row.status)]: {
        description: row.summary,
        ...(row.present?.endsWith('List') ? { headers: LIST_HEADERS } : {}),
        content: {
          'application/json': {
            schema: field
              ? responseSchema(field.type)
              : { type: 'object', description: 'The OpenAPI 3 document of the namespace.' },
          },
        },
      },
      ...errorResponses(route, method),
    },
    security: row.operation?.type === 'mutation' ? WRITE_SECURITY : READ_SECURITY,
  };
}

/** `get` + `/events/by-slug/{slug}` → `getEventsBySlug`; `/events/{id}` → `getEventsById`. */
function operationId(method: HttpMethod, path: string): string {
  const words: string[] = [];
  for (const segment of path.split('/').filter(Boolean)) {
    const param = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (param === undefined) words.push(segment);
    else if (words.at(-1) !== `by-${param}`) words.push(`by-${param}`);
  }
  const pascal = words
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return `${method.toLowerCase()}${pascal}`;
}

function withDefault(schema: Schema, param: ParamSpec): Schema {
  return param.default === undefined ? schema : { ...schema, default: param.default };
}

function describedParam(param: ParamSpec): string {
  return param.description || 'No description provided.';
}

function parameter(param: ParamSpec): Schema {
  const schema = withDefault(inputSchema(param.type), param);
  const csv = isListType(getNullableType(param.type));
  return {
    name: param.name,
    in: param.in,
    description: describedParam(param),
    schema,
    required: param.in === 'path' || param.required,
    // Lists travel as CSV (`categories=3,4`); brackets and repeated keys work too.
    ...(csv ? { style: 'form', explode: false } : {}),
  };
}

function requestBody(params: ParamSpec[]): Schema {
  const required = params.filter((p) => p.required).map((p) => p.name);
  const schema: Schema = {
    type: 'object',
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(
      params.map((p) => [
        p.name,
        // A required field cannot be cleared; the others take an explicit null.
        withDefault({ description: describedParam(p), ...inputSchema(p.type, !p.required) }, p),
      ]),
    ),
  };
  return {
    required: required.length > 0,
    description:
      'The fields to write. Only the fields present change on updates; an explicit null or "" ' +
      'clears an optional field.',
    content: {
      'application/json': { schema },
      'application/x-www-form-urlencoded': { schema },
    },
  };
}

function error(description: string): Schema {
  return { description, content: { 'application/json': { schema: ref('Error') } } };
}

/** The failures each kind of route has (docs/contract.md §8), with their codes. */
function errorResponses(route: CompiledRoute, method: HttpMethod): Record<string, Schema> {
  const { row } = route;
  if (!row.operation) return {};
  const resource = row.resource ?? 'record';
  const post = POSTS.has(resource);
  const mutation = row.operation.type === 'mutation';
  const single = route.params.some((p) => p.in === 'path');
  const list = !single && !mutation;
  const out: Record<string, Schema> = {
    '400': error(
      'A parameter is missing (`rest_missing_callback_param`) or invalid (`rest_invalid_param`), ' +
        `or a referenced record does not exist.${WRITE_METHODS.has(method) ? ' Malformed JSON: `rest_invalid_json`.' : ''}`,
    ),
  };
  if (mutation) {
    out['401'] = error(
      'No credentials, or credentials that are wrong or revoked (`rest_forbidden`).',
    );
    out['403'] = error('The caller may not do this (`rest_forbidden`).');
  } else if (single && post) {
    out['403'] = error(
      `The ${resource} is not visible to the caller (\`${resource}-not-accessible\`)` +
        (resource === 'event'
          ? ', is in the trash (`event-no-longer-available`) or needs its password (`event-password-protected`).'
          : '.'),
    );
  }
  if (single)
    out['404'] = error(
      `No ${resource} has this ${route.params.find((p) => p.in === 'path')?.name} (\`rest-${resource}-not-found\`).`,
    );
  if (list)
    out['404'] = error(`The page is past the last one (\`${resource}-archive-page-not-found\`).`);
  if (method === 'DELETE' && post) {
    out['410'] = error(`The ${resource} is already in the trash (\`${resource}-is-in-trash\`).`);
  }
  if (WRITE_METHODS.has(method)) {
    out['413'] = error('The request body is larger than allowed (`rest_request_too_large`).');
  }
  return out;
}
