import { filterSchema } from '@graphql-tools/utils';
import type { SofaPluginConfig } from '@graphql-yoga/plugin-sofa';
import { GraphQLError, GraphQLSchema, type GraphQLFormattedError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { carryInfo, type OnRequestPayload } from '../http/request-info';
import { DomainError } from '../lib';
import { GRAPHQL_ONLY } from './compile';
import { noRoute, statusOf, wordpressCode } from './errors';
import { finishSofaDocument } from './openapi/sofa-doc';
import { errorReply, toResponse } from './respond';
import {
  coercedArgs,
  isPagedField,
  pageLinks,
  sofaRouter,
  sofaSearch,
  type SofaRoute,
} from './sofa-query';

/**
 * The generic REST view for BI tools (docs/bi.md "The SOFA view": `{api_root}/calendar/rest/*`):
 * sofa-api, through @graphql-yoga/plugin-sofa, turns every Query field into a GET route (`/events`,
 * `/event/{id}`, `/venues` …) with query parameters named after its arguments, and serves their
 * OpenAPI document at `/openapi.json`, finished for OpenAPI tools (`openapi/sofa-doc.ts`). It runs
 * through the same Yoga pipeline as `/graphql` (authentication, loaders, error masking). It sees
 * the fields REST bodies carry (not the GraphQL-only relations such as `Venue.events`, which would
 * nest whole event lists in every record). Read-only unless `SOFA_MUTATIONS=1`: the schema it is
 * given then has no Mutation type, so no write route exists and none is documented. sofa-api and
 * its router load on the first request under the base path, so start-up does not pay for a view
 * few clients use. Query strings are read as the REST routes read theirs, and list pages link to
 * their neighbours in a `Link` header (sofa-query.ts).
 */

/** Where the view serves its OpenAPI document, under its base path. */
const OPENAPI_PATH = '/openapi.json';

export function sofaBasePath(config: Config): string {
  return `${config.apiRoot}/calendar/rest`;
}

/**
 * The schema SOFA routes: the REST fields of every type, without the Mutation type unless
 * `mutations`. The resolvers are the same functions.
 */
function sofaSchema(schema: GraphQLSchema, mutations: boolean): GraphQLSchema {
  const restFields = filterSchema({
    schema,
    objectFieldFilter: (type, field) => !GRAPHQL_ONLY.has(`${type}.${field}`),
    // `Node` without its `node_id` fields (GraphQL-only) would be an invalid interface.
    typeFilter: (type) => type !== 'Node',
  });
  if (mutations) return restFields;
  // Without `types`, the schema holds only what queries reach: no Mutation, no write inputs.
  const config = restFields.toConfig();
  return new GraphQLSchema({ ...config, mutation: null, types: [] });
}

type SofaErrorHandler = NonNullable<SofaPluginConfig['errorHandler']>;

/**
 * Errors as GraphQL's `{errors}`, with the HTTP status of the worst one: a domain error's code
 * (`errors.ts`), sofa's own 400 for unparseable parameters, 400 for GraphQL's validation and
 * coercion errors, 500 for anything else (already masked by Yoga).
 */
const errorHandler: SofaErrorHandler = (errors) => {
  let status = 0;
  const formatted: GraphQLFormattedError[] = errors.map((error) => {
    if (!(error instanceof GraphQLError)) {
      status = Math.max(status, 500);
      return { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
    const { http, ...extensions } = error.extensions as {
      http?: { status?: number };
      code?: unknown;
    };
    const code = extensions.code;
    status = Math.max(status, typeof code === 'string' ? statusOf(code) : (http?.status ?? 400));
    return { ...error.toJSON(), extensions };
  });
  const response = new Response(JSON.stringify({ errors: formatted }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
  // sofa types its handler with fetch's Response as typed by its router library.
  return response as unknown as ReturnType<SofaErrorHandler>;
};

function sofaOptions(config: Config): SofaPluginConfig {
  const basePath = sofaBasePath(config);
  return {
    basePath,
    depthLimit: 1,
    customScalars: { JSON: {} },
    errorHandler,
    openAPI: {
      endpoint: OPENAPI_PATH,
      info: {
        title: 'Calendar generic REST view (SOFA)',
        description:
          'Generated from the GraphQL schema for BI tools: one GET route per query field' +
          (config.sofaMutations ? ', one POST route per mutation' : ' (read-only)') +
          '. The legacy REST contract lives under calendar/events/v1.',
        version: '1.0.0',
      },
      servers: [{ url: `${config.siteUrl}${basePath}` }],
    },
    // The Swagger UI page loads its scripts from a CDN: not served.
    swaggerUI: { endpoint: false },
  };
}

type YogaInit = Parameters<NonNullable<Plugin['onYogaInit']>>[0];
type SchemaChange = Parameters<NonNullable<Plugin['onSchemaChange']>>[0];

export function useCalendarSofa(config: Config): Plugin {
  const basePath = sofaBasePath(config);
  let yoga: YogaInit['yoga'] | undefined;
  let schemaChange: SchemaChange | undefined;
  let sofa: Promise<LoadedSofa> | undefined;

  /** @graphql-yoga/plugin-sofa, initialised as Yoga would have done at start-up. */
  async function load(): Promise<LoadedSofa> {
    const { useSofa } = await import('@graphql-yoga/plugin-sofa');
    const plugin = useSofa(sofaOptions(config));
    if (!yoga || !schemaChange) throw new Error('SOFA view used before Yoga initialised it');
    const schema = sofaSchema(schemaChange.schema, config.sofaMutations);
    plugin.onYogaInit?.({ yoga });
    plugin.onSchemaChange?.({ ...schemaChange, schema });
    return { plugin, route: sofaRouter(schema), schema };
  }

  return {
    onYogaInit(payload) {
      yoga = payload.yoga;
    },
    onSchemaChange(payload) {
      schemaChange = payload;
      sofa = undefined;
    },
    // Synchronous on every other path (OnRequestPayload).
    onRequest(payload) {
      return payload.url.pathname.startsWith(basePath) ? serve(payload) : undefined;
    },
  };

  async function serve(payload: OnRequestPayload): Promise<void> {
    sofa ??= load().catch((err: unknown) => {
      sofa = undefined; // try again on the next request
      throw err;
    });
    const loaded = await sofa;
    const { plugin, route } = loaded;
    const { Response } = payload.fetchAPI;
    // Only GET: query routes take no other method (mutations read JSON bodies).
    const found =
      payload.request.method === 'GET'
        ? route(payload.url.pathname.slice(basePath.length))
        : undefined;
    let args = new Map<string, unknown>();
    let request = payload;
    if (found) {
      try {
        args = coercedArgs(payload.url, found);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        payload.endResponse(domainErrorResponse(err));
        return;
      }
      request = withSearch(payload, sofaSearch(payload.url, found, args));
    }
    let answer: Response | undefined;
    await plugin.onRequest?.({
      ...request,
      endResponse(response) {
        answer = response;
      },
    });
    // A path the view has no route for is WordPress's `rest_no_route`, as elsewhere under the
    // API root (docs/contract.md §11), not Yoga's empty 404.
    if (!answer) answer = toResponse(Response, errorReply(noRoute()), payload.request);
    else if (found) answer = await withPageLinks(answer, found, args, payload.url);
    else if (payload.url.pathname === `${basePath}${OPENAPI_PATH}` && answer.status === 200) {
      answer = await finishedDocument(answer, loaded);
    }
    payload.endResponse(answer);
  }

  /** A list page's answer with its `Link` header (none when it has no neighbour). */
  async function withPageLinks(
    response: Response,
    found: SofaRoute,
    args: Map<string, unknown>,
    url: URL,
  ): Promise<Response> {
    if (response.status !== 200 || !isPagedField(found.field)) return response;
    const body = (await response.clone().json()) as { total_pages?: unknown } | null;
    if (typeof body?.total_pages !== 'number') return response;
    const page = args.get('page') ?? found.field.args.find((a) => a.name === 'page')?.defaultValue;
    const links = pageLinks(
      config.siteUrl,
      url,
      typeof page === 'number' ? page : 1,
      body.total_pages,
    );
    if (!links) return response;
    const headers = new Headers(response.headers);
    headers.set('Link', links);
    return new Response(response.body, { status: response.status, headers });
  }
}

interface LoadedSofa {
  plugin: Plugin;
  route: (path: string) => SofaRoute | undefined;
  /** The schema the view serves. */
  schema: GraphQLSchema;
  /** `openapi.json` as served, finished once (`openapi/sofa-doc.ts`). */
  document?: string;
}

/** sofa-api's OpenAPI document, finished for OpenAPI tools; the same headers. */
async function finishedDocument(response: Response, loaded: LoadedSofa): Promise<Response> {
  loaded.document ??= JSON.stringify(
    finishSofaDocument((await response.json()) as Record<string, unknown>, loaded.schema),
  );
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(loaded.document, { status: response.status, headers });
}

/** A parameter error in the view's error format (`errorHandler`), as the REST routes reject it. */
function domainErrorResponse(error: DomainError): Response {
  const extensions: Record<string, unknown> = { code: error.code, rest_code: wordpressCode(error) };
  if (error.data.params) extensions.params = error.data.params;
  return errorHandler([new GraphQLError(error.message, { extensions })]) as unknown as Response;
}

type RequestPayload = Parameters<NonNullable<Plugin['onRequest']>>[0];

/** The request with `search` as its query string (sofa-api reads the request's URL). */
function withSearch(payload: RequestPayload, search: string): RequestPayload {
  const url = new URL(payload.url);
  url.search = search;
  if (url.search === payload.url.search) return payload;
  const request = new Request(url, payload.request);
  carryInfo(payload.request, request);
  return { ...payload, url, request };
}
