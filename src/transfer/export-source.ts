import {
  execute,
  parse,
  print,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { viewerFor, type ViewerUser } from '../users/viewer';
import type { Config } from '../config/config';
import { createContext, refreshLoaders, type AppContext } from '../context';
import { dialectOf, type Db } from '../db/knex';
import { buildSchema } from '../graphql/schema';

/**
 * What exports read (ICS feeds, CSV over HTTP, `export:csv`, `export:ics`): records as the
 * GraphQL schema answers them — same visibility, password redaction, cost formatting and URLs
 * as every other reader — through an `Executor`. HTTP exports execute through Yoga's pipeline
 * with the caller's context; the CLI executes directly as the administrator. Each page runs
 * with fresh loaders, so memory stays bounded by one page whatever the export's size.
 */

export type Executor = (
  document: DocumentNode,
  variables?: Record<string, unknown>,
) => Promise<ExecutionResult>;

/** Rows per page that exports read (above the public `per_page` cap, which they lift). */
export const EXPORT_PAGE_SIZE = 500;

export const COLLECTIONS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export interface ExportVenue {
  id: number;
  global_id: string;
  slug: string;
  status: string;
  venue: string;
  description: string;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  stateprovince: string;
  zip: string;
  phone: string;
  website: string;
  geo_lat: number | null;
  geo_lng: number | null;
  show_map: boolean;
  show_map_link: boolean;
  url: string;
  date_utc: string;
  modified_utc: string;
}

export interface ExportOrganizer {
  id: number;
  global_id: string;
  slug: string;
  status: string;
  organizer: string;
  description: string;
  email: string;
  phone: string;
  website: string;
  url: string;
  date_utc: string;
  modified_utc: string;
}

export interface ExportTerm {
  id: number;
  name: string;
  slug: string;
  description: string;
  count: number;
  url: string;
  /** Categories only. */
  parent?: number;
}

export interface ExportEvent {
  id: number;
  global_id: string;
  slug: string;
  status: string;
  title: string;
  description: string;
  excerpt: string;
  url: string;
  /** The stored website, or the event's `url` when it has none (as the contract renders it). */
  website: string;
  /** null when redacted (password-protected event in a list). */
  all_day: boolean | null;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  cost: string;
  cost_details: { currency_symbol: string; currency_position: string; values: string[] };
  show_map: boolean | null;
  show_map_link: boolean | null;
  hide_from_listings: boolean | null;
  sticky: boolean | null;
  featured: boolean | null;
  date_utc: string;
  modified_utc: string;
  venue: ExportVenue | null;
  organizer: ExportOrganizer[];
  categories: ExportTerm[];
  tags: ExportTerm[];
}

const VENUE_FIELDS = `id global_id slug status venue description address city country province
  state stateprovince zip phone website geo_lat geo_lng show_map show_map_link url date_utc
  modified_utc`;
const ORGANIZER_FIELDS = `id global_id slug status organizer description email phone website url
  date_utc modified_utc`;
const TERM_FIELDS = 'id name slug description count url';

export const SELECTIONS: Record<Collection, string> = {
  events: `id global_id slug status title description excerpt url website all_day start_date
    end_date utc_start_date utc_end_date timezone cost
    cost_details { currency_symbol currency_position values }
    show_map show_map_link hide_from_listings sticky featured date_utc modified_utc
    venue { ${VENUE_FIELDS} } organizer { ${ORGANIZER_FIELDS} }
    categories { ${TERM_FIELDS} } tags { ${TERM_FIELDS} }`,
  venues: VENUE_FIELDS,
  organizers: ORGANIZER_FIELDS,
  categories: `${TERM_FIELDS} parent`,
  tags: TERM_FIELDS,
};

/**
 * The list operation of a REST list route with the export's selection instead of the REST one:
 * the same root field, arguments and variable definitions (so the route's coerced variables
 * apply unchanged), selecting `total` and the items.
 */
export function exportListDocument(routeDocument: DocumentNode, collection: Collection) {
  const operation = routeDocument.definitions[0] as OperationDefinitionNode;
  const field = operation.selectionSet.selections[0] as FieldNode;
  const variables = (operation.variableDefinitions ?? []).map((v) => print(v)).join(', ');
  const args = (field.arguments ?? []).map((a) => print(a)).join(', ');
  return parse(`query ExportList${variables ? `(${variables})` : ''} {
    list: ${field.name.value}${args ? `(${args})` : ''} {
      total total_pages ${collection} { ${SELECTIONS[collection]} } } }`);
}

export interface PagedList<T> {
  total: number;
  items: T[];
}

export class ExportQueryError extends Error {
  constructor(readonly result: ExecutionResult) {
    super(result.errors?.[0]?.message ?? 'export query failed');
  }
}

function isPageNotFound(result: ExecutionResult): boolean {
  return (result.errors ?? []).some((e) =>
    String(e.extensions?.rest_code ?? '').endsWith('archive-page-not-found'),
  );
}

/** One page of a list document: `variables` plus this page and size. */
export async function fetchPage<T>(
  exec: Executor,
  document: DocumentNode,
  collection: Collection,
  variables: Record<string, unknown>,
  page: number,
  perPage: number,
): Promise<PagedList<T>> {
  const result = await exec(document, { ...variables, page, per_page: perPage });
  if (result.errors?.length || !result.data) throw new ExportQueryError(result);
  const list = result.data.list as Record<string, unknown>;
  return { total: Number(list.total), items: list[collection] as T[] };
}

/**
 * Every item of a list, page after page from `first` (already fetched: its errors are the
 * request's), at most `limit` items. A record created or deleted meanwhile may shift the pages.
 */
export async function* remainingPages<T>(
  exec: Executor,
  document: DocumentNode,
  collection: Collection,
  variables: Record<string, unknown>,
  first: PagedList<T>,
  perPage: number,
  limit = Infinity,
): AsyncGenerator<T[]> {
  let sent = 0;
  let page = 1;
  let current = first;
  for (;;) {
    const items = current.items.slice(0, Math.max(0, limit - sent));
    if (items.length) yield items;
    sent += items.length;
    if (sent >= limit || current.items.length < perPage || page * perPage >= current.total) return;
    page += 1;
    try {
      current = await fetchPage<T>(exec, document, collection, variables, page, perPage);
    } catch (error) {
      // Records deleted meanwhile: the page is past the end now.
      if (error instanceof ExportQueryError && isPageNotFound(error.result)) return;
      throw error;
    }
  }
}

/** Codes of an event deleted or trashed between listing its id and reading it. */
const SKIPPED = new Set(['NOT_FOUND', 'FORBIDDEN', 'GONE']);

let cachedSchema: GraphQLSchema | undefined;

/**
 * An executor outside HTTP (the CLI): the schema executed directly as `user`, which sees every
 * non-trashed record unredacted when it is an administrator.
 */
export function directExecutor(db: Db, config: Config, user: ViewerUser, now: Date): Executor {
  cachedSchema ??= buildSchema();
  const schema = cachedSchema;
  const ctx: AppContext = createContext(
    {
      config: { ...config, perPageMax: Math.max(config.perPageMax, EXPORT_PAGE_SIZE) },
      db,
      dialect: dialectOf(config.databaseUrl),
      now: () => now,
    },
    viewerFor(user),
  );
  return async (document, variables) => {
    refreshLoaders(ctx);
    return execute({ schema, document, variableValues: variables, contextValue: ctx });
  };
}

/**
 * These events (ids of non-trashed events), in id order, read as single events so hidden and
 * protected ones come whole: one document of aliased `event(id:)` fields, batched by the
 * loaders. An event deleted meanwhile is skipped.
 */
export async function eventsByIds(exec: Executor, ids: readonly number[]): Promise<ExportEvent[]> {
  if (ids.length === 0) return [];
  const fields = ids.map((id, i) => `e${i}: event(id: ${Number(id)}) { ...E }`).join('\n');
  const document = parse(`query ExportEvents {\n${fields}\n}
    fragment E on Event { ${SELECTIONS.events} }`);
  const result = await exec(document);
  if (!result.errors?.length && result.data) {
    return ids.map((_, i) => result.data![`e${i}`] as ExportEvent);
  }
  // Event! is non-null: one vanished event empties the whole answer. Read them one by one.
  if (ids.length === 1) {
    const gone = result.errors?.every((e) => SKIPPED.has(String(e.extensions?.code)));
    if (gone) return [];
    throw new ExportQueryError(result);
  }
  const out: ExportEvent[] = [];
  for (const id of ids) out.push(...(await eventsByIds(exec, [id])));
  return out;
}
