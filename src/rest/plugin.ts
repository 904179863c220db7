import { print, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Config } from '../config';
import { withinBudget, type AppContext } from '../context';
import { listTooLong, overlongList } from '../graphql/limits';
import { loggableTarget } from '../http/logger';
import { requestInfo, requestLog, type OnRequestPayload } from '../http/request-info';
import { requestTimeout, withTimeout } from '../http/timeout';
import { NAMESPACE } from '../lib';
import { compileRoutes, type CompiledRoute } from './compile';
import { jitRoutes } from './jit';
import { fromGraphQLError, fromThrown, internalError, noRoute } from './errors';
import { describeNamespace, describeRoutes, type Descriptions } from '.';
import { collectParams, type Params } from './params';
import { present } from './present';
import { errorReply, listHeaders, toResponse, type Reply } from './respond';
import { ROUTES, type HttpMethod, type RouteRow } from './routes';
import { sofaBasePath } from './sofa';
import { variablesFor } from './variables';

/**
 * The REST adapter as a Yoga plugin (docs/architecture.md: the request flow). On a request under
 * `{api_root}/<namespace>`: match a route of the table, collect the parameters, build the
 * context exactly as Yoga does for /graphql (same authentication, fresh loaders), coerce the
 * parameters by the GraphQL types, run the route's prepared operation (validated and compiled
 * at start-up, so the per-request parse/validate/limit hooks of /graphql have nothing to do)
 * and present the result. Modelled on @graphql-yoga/plugin-sofa.
 */

type Enveloped = ReturnType<
  YogaServerInstance<Record<string, unknown>, AppContext>['getEnveloped']
>;

interface Match {
  route: CompiledRoute;
  path: Record<string, string>;
}

/** `table`: the route table to serve (tests pass a copy with extra rows). */
export function useRest(
  config: Config,
  table: readonly RouteRow[] = ROUTES,
): Plugin<Record<string, unknown>> {
  const namespaces = [NAMESPACE, ...config.namespaceAliases];
  const sofa = sofaBasePath(config);
  let routes: CompiledRoute[] = [];
  let descriptions: Descriptions | undefined;
  const sources = new Map<CompiledRoute, string>();
  let compiled = new Map<CompiledRoute, CompiledQuery>();
  let getEnveloped: ((context: Record<string, unknown>) => Enveloped) | undefined;

  /** `{namespace, rest}` when the path is under one of our namespaces. */
  function locate(pathname: string): { namespace: string; rest: string } | null {
    for (const namespace of namespaces) {
      const prefix = `${config.apiRoot}/${namespace}`;
      if (pathname === prefix || pathname.startsWith(`${prefix}/`)) {
        return { namespace, rest: pathname.slice(prefix.length).replace(/\/$/, '') };
      }
    }
    return null;
  }

  function match(rest: string, method: string): Match | 'no-method' | null {
    let pathMatched = false;
    for (const route of routes) {
      const found = route.pattern.exec(rest);
      if (!found) continue;
      pathMatched = true;
      if (!route.row.methods.includes(method as HttpMethod)) continue;
      const path: Record<string, string> = {};
      for (const [k, v] of Object.entries(found.groups ?? {})) path[k] = decodeURIComponent(v);
      return { route, path };
    }
    return pathMatched ? 'no-method' : null;
  }

  function allowed(rest: string): string {
    const methods = routes.filter((r) => r.pattern.test(rest)).flatMap((r) => r.row.methods);
    return [...new Set(methods)].join(', ');
  }

  /** `Allow` of a matched request: every method of its path, computed once per route. */
  const allowOfRoute = new Map<CompiledRoute, string>();
  function allowedFor(route: CompiledRoute): string {
    let allow = allowOfRoute.get(route);
    if (allow === undefined) {
      const methods = routes
        .filter((r) => r.row.path === route.row.path)
        .flatMap((r) => r.row.methods);
      allow = [...new Set(methods)].join(', ');
      allowOfRoute.set(route, allow);
    }
    return allow;
  }

  async function execute(
    request: Request,
    serverContext: Record<string, unknown>,
    { route, path }: Match,
    params: Params,
    namespace: string,
  ): Promise<Reply> {
    if (!getEnveloped) throw new Error('REST plugin used before Yoga initialised it');
    const variables: Record<string, unknown> = {};
    const initial = {
      ...serverContext,
      request,
      params: { query: sources.get(route), variables },
    };
    const enveloped = getEnveloped(initial);
    const contextValue = (await enveloped.contextFactory()) as unknown as AppContext;
    // REST addresses in the result use the namespace the request came in on.
    contextValue.restNamespace = namespace;
    // X-Request-Id and the security headers are set on every response by src/http/plugin.ts.
    const headers: Record<string, string> = {};
    try {
      Object.assign(variables, variablesFor(route, path, params));
      // MAX_ARRAY_LENGTH, as /graphql checks it in src/graphql/limits.ts.
      const long = overlongList(variables, config.maxArrayLength);
      if (long) throw listTooLong(long.param, long.length, config.maxArrayLength);
    } catch (err) {
      const mapped = fromThrown(err);
      if (mapped) return errorReply(mapped, headers);
      throw err;
    }
    // The route's compiled operation (src/rest/jit.ts), on the context Yoga built.
    // Its statements are charged to the request's runtime budget (src/context/budget.ts).
    const result = (await withinBudget(contextValue.budget, () =>
      compiled.get(route)!.query(undefined, contextValue, variables),
    )) as ExecutionResult;
    const [error] = result.errors ?? [];
    if (error) {
      // Services' errors carry their REST code; an unreachable database is a 503, anything else
      // a logged 500 without details (as Yoga's error masking does for /graphql).
      const mapped = fromGraphQLError(error) ?? fromThrown(error.originalError);
      if (!mapped || mapped.status >= 500) {
        log(request, error.originalError ?? error);
      }
      return errorReply(mapped ?? internalError(), headers);
    }
    const body = present(route.row.present!, result.data![route.field!]);
    const isList = route.row.present!.endsWith('List');
    return {
      status: route.row.status,
      body,
      headers: isList ? { ...headers, ...listHeaders(body as Record<string, unknown>) } : headers,
    };
  }

  function underApiRoot(pathname: string): boolean {
    const root = config.apiRoot;
    return pathname === root || pathname.startsWith(`${root}/`);
  }

  /**
   * The rest of the API root (docs/contract.md §11): `GET {api_root}/`, the site's index; any
   * other path under it but the SOFA view's is WordPress's `rest_no_route`. An empty API_ROOT
   * (`/`) shares the site's root with the web page and /graphql: nothing to answer then.
   */
  function outsideNamespaces(request: Request, pathname: string): Reply | null {
    const root = config.apiRoot;
    if (root === '' || !underApiRoot(pathname)) return null;
    if (pathname === sofa || pathname.startsWith(`${sofa}/`)) return null;
    if (pathname !== root && pathname !== `${root}/`) return errorReply(noRoute());
    requestInfo(request).route = `${root}/`;
    const method = request.method.toUpperCase();
    if (method === 'OPTIONS') return { status: 204, body: null, headers: { Allow: 'GET' } };
    if (method !== 'GET' && method !== 'HEAD') return errorReply(noRoute());
    return { status: 200, body: descriptions!.root(), headers: { Allow: 'GET' } };
  }

  async function dispatch(
    request: Request,
    url: URL,
    serverContext: Record<string, unknown>,
  ): Promise<Reply | null> {
    const located = locate(url.pathname);
    if (!located) return outsideNamespaces(request, url.pathname);
    const method = request.method.toUpperCase();
    if (method === 'OPTIONS') {
      const allow = allowed(located.rest);
      return allow ? { status: 204, body: null, headers: { Allow: allow } } : errorReply(noRoute());
    }
    let found: ReturnType<typeof match>;
    try {
      found = match(located.rest, method === 'HEAD' ? 'GET' : method);
    } catch {
      found = null; // undecodable percent-encoding in the path
    }
    if (found === null || found === 'no-method') return errorReply(noRoute());
    requestInfo(request).route = found.route.row.path || '/';
    const allow = { Allow: allowedFor(found.route) };
    if (!found.route.document) {
      const reply = describeNamespace(
        descriptions!,
        found.route,
        url.searchParams,
        located.namespace,
      );
      return { ...reply, headers: { ...allow, ...reply.headers } };
    }
    const params = await collectParams(request, url, config.maxBodyBytes);
    const reply = await execute(request, serverContext, found, params, located.namespace);
    return { ...reply, headers: { ...allow, ...reply.headers } };
  }

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped as unknown as typeof getEnveloped;
    },
    onSchemaChange({ schema }: { schema: GraphQLSchema }) {
      routes = compileRoutes(schema, table);
      compiled = jitRoutes(schema, routes);
      allowOfRoute.clear();
      descriptions = describeRoutes(config, schema, routes, namespaces);
      sources.clear();
      for (const route of routes) if (route.document) sources.set(route, print(route.document));
    },
    // Synchronous for paths outside the API root (OnRequestPayload).
    onRequest(payload) {
      // An empty API root puts the namespaces at the site's root: every path may be ours.
      if (config.apiRoot !== '' && !underApiRoot(payload.url.pathname)) return;
      return answer(payload);
    },
  };

  async function answer({
    request,
    url,
    endResponse,
    fetchAPI,
    serverContext,
  }: OnRequestPayload): Promise<void> {
    let reply: Reply | null;
    try {
      // REQUEST_TIMEOUT_MS: 503 rest_request_timeout when the answer takes longer.
      reply = await withTimeout(
        dispatch(request, url, serverContext as Record<string, unknown>),
        config.requestTimeoutMs,
        () => requestTimeout(config.requestTimeoutMs),
      );
    } catch (err) {
      const mapped = fromThrown(err);
      if (!mapped) log(request, err);
      reply = errorReply(mapped ?? internalError());
    }
    if (reply) endResponse(toResponse(fetchAPI.Response, reply, request));
  }
}

/** Logged with the request id (src/http/request-info.ts); secret query values redacted. */
function log(request: Request, error: unknown): void {
  requestLog()?.error(
    { method: request.method, path: loggableTarget(new URL(request.url)), err: error },
    'REST request failed',
  );
}
