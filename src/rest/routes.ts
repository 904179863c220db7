import { NAMESPACE, type ResourceName } from '../lib';

/**
 * THE route table of `{api_root}/calendar/events/v1` (docs/contract.md §2). One row per endpoint (a
 * path and the methods that share a handler); it drives routing, parameter coercion, execution,
 * presentation, `GET /` and `GET /doc`. Paths use the reference's pattern syntax (`(?P<id>\d+)`),
 * which is also how `GET /` keys them.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a GraphQL result becomes the REST body (see `present.ts`). */
export type PresenterName =
  | 'event'
  | 'venue'
  | 'organizer'
  | 'category'
  | 'tag'
  | 'eventList'
  | 'venueList'
  | 'organizerList'
  | 'categoryList'
  | 'tagList';

/** Documentation of one parameter beyond what the GraphQL schema says. */
export interface ArgNote {
  /** Replaces the GraphQL description. */
  description?: string;
  /** Default to document (the GraphQL default is used when absent). */
  default?: unknown;
  /** Accepted values, for parameters without a GraphQL enum type. */
  enum?: string[];
}

export interface RouteRow {
  /** Path below the namespace: `''` (root), `/events`, `/events/(?P<id>\d+)`… */
  path: string;
  methods: HttpMethod[];
  /** One line for `GET /` and `GET /doc`. */
  summary: string;
  /**
   * The GraphQL root field the endpoint runs. Its arguments are the endpoint's parameters, with
   * the same names; absent for `/` and `/doc`, which the adapter answers itself.
   */
  operation?: { type: 'query' | 'mutation'; field: string };
  /** Argument (an input object) that receives every other parameter: writes send `input`. */
  input?: string;
  /** Parameters the contract requires (documentation: the services check and answer 400). */
  required?: string[];
  /** Extra documentation per parameter. */
  notes?: Record<string, ArgNote>;
  /** Status of a success. */
  status: 200 | 201;
  /** Subject of the route: its not-found code is `rest-<resource>-not-found`. */
  resource?: ResourceName;
  present?: PresenterName;
}

type Collection = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

const ID = '(?P<id>\\d+)';
const SLUG = '(?P<slug>[^/]+)';

const PAGE_NOTES: Record<string, ArgNote> = { per_page: { default: 10 } };

/** GET+POST on the collection; GET, DELETE and updates by id (and by slug for posts). */
function resource(
  collection: Collection,
  one: ResourceName,
  gql: { list: string; single: string },
  required: string[],
  /** Posts (events, venues, organizers) also have slug routes; terms do not. */
  bySlug: boolean,
): RouteRow[] {
  const base = `/${collection}`;
  const present = one;
  const endpoints = (path: string, key: string, suffix: string): [RouteRow, RouteRow, RouteRow] => [
    {
      path,
      methods: ['GET'],
      summary: `Reads one ${one} by ${key}.`,
      operation: { type: 'query', field: `${gql.single}${suffix}` },
      status: 200,
      resource: one,
      present,
    },
    {
      path,
      methods: ['DELETE'],
      summary:
        one === 'category' || one === 'tag'
          ? `Deletes the ${one} permanently and answers it as it was.`
          : `Moves the ${one} to the trash (or deletes it with force=true) and answers it.`,
      operation: { type: 'mutation', field: `delete_${one}${suffix}` },
      status: 200,
      resource: one,
      present,
    },
    {
      path,
      methods: ['POST', 'PUT', 'PATCH'],
      summary: `Updates the fields present in the request of the ${one} with this ${key}.`,
      operation: { type: 'mutation', field: `update_${one}${suffix}` },
      input: 'input',
      status: 200,
      resource: one,
      present,
    },
  ];
  const single = (path: string, key: string, suffix: string): RouteRow[] => {
    const [read, remove, update] = endpoints(path, key, suffix);
    // The reference's registration order: posts GET, DELETE, updates; terms GET, updates, DELETE.
    return bySlug ? [read, remove, update] : [read, update, remove];
  };
  return [
    {
      path: base,
      methods: ['GET'],
      summary: `Lists ${collection}, one page at a time.`,
      operation: { type: 'query', field: gql.list },
      notes: PAGE_NOTES,
      status: 200,
      resource: one,
      present: `${one}List`,
    },
    {
      path: base,
      methods: ['POST'],
      summary: `Creates ${one === 'event' ? 'an' : 'a'} ${one}.`,
      operation: { type: 'mutation', field: `create_${one}` },
      input: 'input',
      required,
      status: 201,
      resource: one,
      present,
    },
    ...single(`${base}/${ID}`, 'id', ''),
    ...(bySlug ? single(`${base}/by-slug/${SLUG}`, 'slug', '_by_slug') : []),
  ];
}

export const ROUTES: readonly RouteRow[] = [
  {
    path: '',
    methods: ['GET'],
    summary: 'Describes the namespace: every route, its methods and parameters.',
    notes: {
      namespace: { description: 'The namespace to describe.', default: NAMESPACE },
      context: {
        description: 'Scope of the answer.',
        default: 'view',
        enum: ['view', 'embed', 'edit'],
      },
    },
    status: 200,
  },
  {
    path: '/doc',
    methods: ['GET'],
    summary: 'The OpenAPI 3 document of the namespace.',
    status: 200,
  },
  ...resource(
    'events',
    'event',
    { list: 'events', single: 'event' },
    ['title', 'start_date', 'end_date'],
    true,
  ),
  ...resource('venues', 'venue', { list: 'venues', single: 'venue' }, ['venue'], true),
  ...resource(
    'organizers',
    'organizer',
    { list: 'organizers', single: 'organizer' },
    ['organizer'],
    true,
  ),
  ...resource(
    'categories',
    'category',
    { list: 'categories', single: 'category' },
    ['name'],
    false,
  ),
  ...resource('tags', 'tag', { list: 'tags', single: 'tag' }, ['name'], false),
];

/** `/events/(?P<id>\d+)` → `/events/{id}` (OpenAPI path templates). */
export function templatePath(path: string): string {
  return path.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
}
