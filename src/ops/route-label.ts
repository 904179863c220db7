import type { Config } from '../config';
import { NAMESPACE } from '../lib';
import { templatePath } from '../rest/routes';
import { sofaBasePath } from '../rest/sofa';
import { matchRoute, ROUTE_LABELS } from '../web/routes';

/**
 * The `route` label of a request's metrics: a pattern from a small fixed set, never a raw path
 * (ids, slugs and probes for random URLs would make one time series each).
 *
 * - a REST route: `{api_root}/<namespace>` + its pattern, `/wp-json/calendar/events/v1/events/{id}`;
 *   a path under a namespace that matched no route: `…/v1/*`;
 * - `/graphql` (queries, GraphiQL, preflights);
 * - the SOFA view: `{api_root}/calendar/rest/*`;
 * - the fixed paths of this app (`/`, `/healthz`, `/readyz`, `/metrics`, the page's assets,
 *   Yoga's `/health`), the calendar feed address `/events/`;
 * - the public pages' patterns (`/event/<slug>/`, `/sitemap-<kind>-<n>.xml` …, src/web/routes.ts);
 * - `{api_root}/` (the REST index) and `{api_root}/*` (no such route);
 * - anything else: `unmatched`.
 */
export function routeLabeller(
  config: Config,
  graphqlEndpoint: string,
  fixedPaths: Iterable<string>,
): (pathname: string, matchedRoute: string | undefined) => string {
  const prefixes = [NAMESPACE, ...config.namespaceAliases].map((ns) => `${config.apiRoot}/${ns}`);
  const sofa = sofaBasePath(config);
  const fixed = new Set([...fixedPaths, '/health']);
  const root = config.apiRoot;
  // Patterns come from the route table: a few dozen, templated once each.
  const templates = new Map<string, string>();
  const template = (route: string): string => {
    let path = templates.get(route);
    if (path === undefined) {
      path = route === '/' ? '/' : templatePath(route);
      templates.set(route, path);
    }
    return path;
  };
  return (pathname, matchedRoute) => {
    if (pathname === graphqlEndpoint || pathname === `${graphqlEndpoint}/`) return graphqlEndpoint;
    const prefix = prefixes.find((p) => pathname === p || pathname.startsWith(`${p}/`));
    if (prefix) {
      return matchedRoute !== undefined && matchedRoute !== graphqlEndpoint
        ? `${prefix}${template(matchedRoute)}`
        : `${prefix}/*`;
    }
    if (pathname === sofa || pathname.startsWith(`${sofa}/`)) return `${sofa}/*`;
    if (fixed.has(pathname)) return pathname;
    const page = matchRoute(config, pathname);
    if (page) return ROUTE_LABELS[page.kind];
    // The calendar-app feed address (`/events/?ical=1`) and, under a non-empty API root, its
    // index and the rest_no_route answers.
    if (pathname === '/events' || pathname === '/events/') return '/events/';
    if (root !== '') {
      if (pathname === root || pathname === `${root}/`) return `${root}/`;
      if (pathname.startsWith(`${root}/`)) return `${root}/*`;
    }
    return 'unmatched';
  };
}
