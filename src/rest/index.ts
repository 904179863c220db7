import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config';
import type { CompiledRoute } from './compile';
import { argsDoc } from './openapi/describe';
import { openApiDocument } from './openapi/doc';
import { errorReply, type Reply } from './respond';
import { restError } from './errors';

/**
 * `GET /` (docs/contract.md §11): every route of the namespace keyed by its pattern
 * (`/calendar/events/v1/events/(?P<id>\d+)`), with its methods and each endpoint's parameters,
 * generated from the route table that routes requests.
 */
export function namespaceIndex(
  config: Config,
  routes: readonly CompiledRoute[],
  namespace: string,
): Record<string, unknown> {
  const root = `${config.siteUrl}${config.apiRoot}`;
  const byPath = new Map<string, CompiledRoute[]>();
  for (const route of routes) {
    byPath.set(route.row.path, [...(byPath.get(route.row.path) ?? []), route]);
  }
  const described: Record<string, unknown> = {};
  for (const [path, group] of byPath) {
    described[`/${namespace}${path}`] = {
      namespace,
      methods: group.flatMap((r) => r.row.methods),
      endpoints: group.map((r) => {
        const args = argsDoc(r);
        // The reference (PHP) writes an empty argument map as [].
        return { methods: r.row.methods, args: Object.keys(args).length ? args : [] };
      }),
      ...(path.includes('(?P<')
        ? {}
        : { _links: { self: [{ href: `${root}/${namespace}${path}` }] } }),
    };
  }
  return { namespace, routes: described, _links: { up: [{ href: `${root}/` }] } };
}

/**
 * `GET {api_root}/` (docs/contract.md §11), where WordPress clients start: the site, its
 * namespaces (the canonical one and every alias) and the routes of all of them, each described
 * as its namespace's own index (`namespaceIndex`) describes it.
 */
function siteIndex(
  config: Config,
  namespaces: readonly string[],
  indexes: ReadonlyMap<string, Record<string, unknown>>,
): Record<string, unknown> {
  const self = `${config.siteUrl}${config.apiRoot}/`;
  const routes: Record<string, unknown> = {
    '/': {
      namespace: '',
      methods: ['GET'],
      endpoints: [
        {
          methods: ['GET'],
          args: { context: { default: 'view', required: false } },
        },
      ],
      _links: { self: [{ href: self }] },
    },
  };
  for (const ns of namespaces)
    Object.assign(routes, indexes.get(ns)!.routes as Record<string, unknown>);
  return {
    name: new URL(config.siteUrl).host,
    description: 'Events calendar',
    url: config.siteUrl,
    home: config.siteUrl,
    namespaces: [...namespaces],
    // Bearer tokens and application passwords (docs/contract.md §9) need no discovery.
    authentication: {},
    routes,
    _links: { self: [{ href: self }] },
  };
}

/**
 * The bodies of `GET /` and `GET /doc` for each namespace the adapter serves, generated once
 * when the schema is set (the plugin's `onSchemaChange`) from the table it routes with.
 */
export interface Descriptions {
  namespaces: readonly string[];
  /** `GET {api_root}/`: the site's index (`siteIndex`). */
  root(): Record<string, unknown>;
  index(namespace: string): Record<string, unknown>;
  doc(namespace: string): Record<string, unknown>;
}

export function describeRoutes(
  config: Config,
  schema: GraphQLSchema,
  routes: readonly CompiledRoute[],
  namespaces: readonly string[],
): Descriptions {
  const index = new Map(namespaces.map((ns) => [ns, namespaceIndex(config, routes, ns)]));
  const doc = new Map(namespaces.map((ns) => [ns, openApiDocument(config, schema, routes, ns)]));
  const root = siteIndex(config, namespaces, index);
  return {
    namespaces,
    root: () => root,
    index: (ns) => index.get(ns)!,
    doc: (ns) => doc.get(ns)!,
  };
}

/**
 * The routes the adapter answers itself, `GET /` and `GET /doc`, for the namespace the request
 * came in on (or the one its `namespace` parameter names).
 */
export function describeNamespace(
  descriptions: Descriptions,
  route: CompiledRoute,
  query: URLSearchParams,
  current: string,
): Reply {
  const namespace = query.get('namespace') ?? current;
  if (!descriptions.namespaces.includes(namespace)) {
    return errorReply(
      restError(404, 'rest_invalid_namespace', 'The specified namespace could not be found.'),
    );
  }
  const context = query.get('context');
  if (context !== null && !['view', 'embed', 'edit'].includes(context)) {
    return errorReply(
      restError(400, 'rest_invalid_param', 'Invalid parameter(s): context', {
        context: 'context must be one of: view, embed, edit.',
      }),
    );
  }
  const body = route.row.path === '' ? descriptions.index(namespace) : descriptions.doc(namespace);
  return { status: 200, body };
}
