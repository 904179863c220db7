import { isListType, isNonNullType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { invalid } from '../lib';
import { coerceParam } from './coerce';
import { parsePairs } from './params';

/**
 * The SOFA view's query strings read as the REST routes read theirs (docs/bi.md "Paging and list
 * parameters"): the PHP-style pairs of params.ts, each argument coerced by coerce.ts (`a,b`,
 * `a[]=…`, repeated keys, `true`/`1`, the `per_page` bound), then written back in the one form
 * sofa-api parses faithfully (a list as repeated plain keys), so sofa's own parsing has nothing
 * left to misread. Also the `Link` header of its list pages.
 */

type QueryField = GraphQLField<unknown, unknown>;

/** sofa-api's query parser (qs) turns more than 20 values of one key into an object. */
const SOFA_LIST_LIMIT = 20;

/** sofa-api's route name of a field (`event_by_slug` → `event-by-slug`). */
function routeName(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

export interface SofaRoute {
  field: QueryField;
  /** The argument read from the path (`/event/{id}`), if any. */
  pathArg?: string;
}

/** The Query field a GET path (relative to the view's base) runs, if any. */
export function sofaRouter(schema: GraphQLSchema): (path: string) => SofaRoute | undefined {
  const fields = Object.values(schema.getQueryType()?.getFields() ?? {});
  const byName = new Map(fields.map((field) => [routeName(field.name), field]));
  return (path) => {
    const match = /^\/([^/]+)(\/[^/]+)?\/?$/.exec(path);
    const field = match ? byName.get(match[1]!) : undefined;
    if (!field) return undefined;
    return match![2] ? { field, pathArg: 'id' } : { field };
  };
}

/** The arguments a request gives its field, coerced like the REST routes' (400 otherwise). */
export function coercedArgs(url: URL, route: SofaRoute): Map<string, unknown> {
  const params = parsePairs(url.searchParams);
  const args = new Map<string, unknown>();
  for (const arg of route.field.args) {
    if (arg.name === route.pathArg || !Object.prototype.hasOwnProperty.call(params, arg.name)) {
      continue;
    }
    const value = coerceParam(arg.name, params[arg.name], arg.type);
    if (Array.isArray(value) && value.length > SOFA_LIST_LIMIT) {
      throw invalid(arg.name, `${arg.name} takes at most ${SOFA_LIST_LIMIT} values in this view.`);
    }
    args.set(arg.name, value);
  }
  return args;
}

/** The query string sofa-api is given: other keys as sent, the arguments in its form. */
export function sofaSearch(url: URL, route: SofaRoute, args: Map<string, unknown>): string {
  const names = new Set(route.field.args.map((arg) => arg.name));
  const out = new URLSearchParams();
  for (const [key, value] of url.searchParams) {
    if (!names.has(key.replace(/\[.*$/, '')) || key === route.pathArg) out.append(key, value);
  }
  for (const [name, value] of args) {
    // An empty list filters nothing, as an absent one; null leaves the argument's default.
    for (const item of Array.isArray(value) ? value : value === null ? [] : [value]) {
      out.append(name, String(item));
    }
  }
  return out.toString();
}

/** Whether the field answers a page of a list (it takes `page` and returns `total_pages`). */
export function isPagedField(field: QueryField): boolean {
  const type = isNonNullType(field.type) ? field.type.ofType : field.type;
  return (
    field.args.some((arg) => arg.name === 'page') &&
    !isListType(type) &&
    'getFields' in type &&
    'total_pages' in type.getFields()
  );
}

function keyOf(pair: string): string {
  const key = pair.split('=')[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * RFC 8288 links to the next and previous pages: the same view path with `page` changed and
 * every other parameter kept as the client wrote it.
 */
export function pageLinks(
  siteUrl: string,
  url: URL,
  page: number,
  totalPages: number,
): string | undefined {
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && keyOf(pair) !== 'page');
  const link = (n: number, rel: string): string =>
    `<${siteUrl}${url.pathname}?${[...kept, `page=${n}`].join('&')}>; rel="${rel}"`;
  const links: string[] = [];
  if (page < totalPages) links.push(link(page + 1, 'next'));
  if (page > 1 && page <= totalPages) links.push(link(page - 1, 'prev'));
  return links.length ? links.join(', ') : undefined;
}
