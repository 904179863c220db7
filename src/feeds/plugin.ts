import {
  getArgumentValues,
  getVariableValues,
  type FieldNode,
  type GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { etagOf, matchesEtag } from '../http/etag';
import { requestInfo, requestLog, type OnRequestPayload } from '../http/request-info';
import { NAMESPACE, notFound } from '../lib';
import { compileRoutes, type CompiledRoute } from '../rest/compile';
import {
  fromGraphQLError,
  fromThrown,
  internalError,
  restError,
  type RestError,
} from '../rest/errors';
import { collectParams } from '../rest/params';
import { errorReply, toResponse } from '../rest/respond';
import { ROUTES, type RouteRow } from '../rest/routes';
import { variablesFor } from '../rest/variables';
import {
  calendarText,
  COLLECTIONS,
  COLUMNS,
  csvChunks,
  exportContext,
  fetchPage,
  icsFeed,
  remainingPages,
  singleEvent,
  STREAM_PAGE_SIZE,
  type Collection,
  type ExportArgs,
} from '../transfer';
import { FEED_TOKEN_PARAM } from '../users';
import { asFeedTokenUser, feedTokenOf } from './private-feed';
import { textStream } from './stream';

/**
 * Exports over HTTP, next to the REST routes of `{api_root}/<namespace>` (docs/feeds.md:
 * "iCalendar feeds" and "CSV over HTTP"):
 *
 * - `GET /events.ics` — an iCalendar feed of the events `GET /events` would list with the same
 *   parameters (filters, default date window, visibility), every page up to `limit` events
 *   (default 1,000, at most 5,000), streamed (`src/transfer/ics/feed.ts`); `GET
 *   /events/<id>.ics` — one event (`password` as for the JSON read). `text/calendar`, with an
 *   ETag (If-None-Match → 304, without writing the feed) for subscribed calendars.
 * - `GET /events|venues|organizers|categories|tags` with `?format=csv` or `Accept: text/csv` —
 *   every record the list matches (all pages, `page`/`per_page` ignored) as CSV, streamed a page
 *   at a time, as an attachment.
 *
 * Bodies are streams with back-pressure whose chunks take a few milliseconds each
 * (`./stream.ts`), so other requests are answered while a large export is written.
 *
 * With `?feed_token=` (`./private-feed.ts`), either reads as that token's user, answered
 * `Cache-Control: private` with an ETag of that user's own.
 *
 * Both take the list route's own parameters and coercion (a bad parameter is the same 400), turn
 * them into the list field's arguments as GraphQL would (SDL defaults included), and read through
 * the domains with the caller's context (`src/transfer/export-source.ts`): the same records,
 * visibility and redaction as the JSON list, without executing a GraphQL operation.
 */

type Enveloped = ReturnType<
  YogaServerInstance<Record<string, unknown>, AppContext>['getEnveloped']
>;

const FEED_LIMIT_DEFAULT = 1000;
const FEED_LIMIT_MAX = 5000;

class Reject extends Error {
  constructor(readonly error: RestError) {
    super(error.body.message);
  }
}

/** Parameters GraphQL's own coercion refused (should one slip past `rest/coerce.ts`). */
class ArgumentsError extends Error {
  constructor(readonly errors: readonly GraphQLError[]) {
    super(errors[0]?.message ?? 'invalid arguments');
  }
}

/** What a feed or export request asks for (`/events.ics`, `/events/<id>.ics`, a list as CSV). */
interface FeedTarget {
  namespace: string;
  collection: Collection;
  /** The event of `/events/<id>.ics`. */
  single: number | null;
  isCsv: boolean;
}

/** A list route, with what turns its variables into the list field's arguments. */
interface ListRoute {
  route: CompiledRoute;
  field: GraphQLField<unknown, unknown>;
  operation: OperationDefinitionNode;
  node: FieldNode;
}

function wantsCsv(request: Request, url: URL): boolean {
  if (url.searchParams.get('format')?.toLowerCase() === 'csv') return true;
  const accept = request.headers.get('accept') ?? '';
  return accept
    .split(',')
    .map((part) => part.split(';'))
    .some(
      ([type, ...params]) =>
        type?.trim().toLowerCase() === 'text/csv' &&
        !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)),
    );
}

/** The public calendar's `/events/?ical=1` (docs/feeds.md), as calendar apps request it. */
function isIcalQuery(url: URL): boolean {
  return /^\/events\/?$/.test(url.pathname) && url.searchParams.get('ical') === '1';
}

function feedLimit(url: URL): number {
  const raw = url.searchParams.get('limit');
  if (raw === null) return FEED_LIMIT_DEFAULT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > FEED_LIMIT_MAX) {
    const reason = `limit must be an integer from 1 to ${FEED_LIMIT_MAX}.`;
    throw new Reject(
      restError(400, 'rest_invalid_param', `Invalid parameter(s): limit (${reason})`, {
        limit: reason,
      }),
    );
  }
  return n;
}

function queryFailure(error: unknown): RestError {
  if (error instanceof Reject) return error.error;
  if (error instanceof ArgumentsError) {
    const [first] = error.errors;
    const mapped = first ? fromGraphQLError(first) : null;
    if (!mapped) requestLog()?.error({ err: first }, 'export failed');
    return mapped ?? internalError();
  }
  const mapped = fromThrown(error);
  if (!mapped || mapped.status >= 500) requestLog()?.error({ err: error }, 'export failed');
  return mapped ?? internalError();
}

function siteHost(config: Config): string {
  return new URL(config.siteUrl).host;
}

export function useExports(config: Config, table: readonly RouteRow[] = ROUTES): Plugin {
  const namespaces = [NAMESPACE, ...config.namespaceAliases];
  let getEnveloped: ((context: Record<string, unknown>) => Enveloped) | undefined;
  let schema: GraphQLSchema | undefined;
  const lists = new Map<Collection, ListRoute>();

  function locate(pathname: string): { namespace: string; rest: string } | null {
    for (const namespace of namespaces) {
      const prefix = `${config.apiRoot}/${namespace}`;
      if (pathname.startsWith(`${prefix}/`)) {
        return { namespace, rest: pathname.slice(prefix.length).replace(/\/$/, '') };
      }
    }
    return null;
  }

  /** The caller's context, authenticated as for any request, for reading pages of exports. */
  async function context(
    request: Request,
    serverContext: Record<string, unknown>,
    namespace: string,
  ): Promise<AppContext> {
    if (!getEnveloped) throw new Error('export plugin used before Yoga initialised it');
    const enveloped = getEnveloped({
      ...serverContext,
      request,
      params: { query: 'query Export { __typename }', variables: {} },
    });
    const ctx = (await enveloped.contextFactory()) as unknown as AppContext;
    ctx.restNamespace = namespace;
    return exportContext(ctx);
  }

  /** The list's arguments as its GraphQL field would receive them (page and size aside). */
  async function listArgs<C extends Collection>(
    collection: C,
    request: Request,
    url: URL,
  ): Promise<ExportArgs[C]> {
    const list = lists.get(collection);
    if (!list || !schema) throw new Error(`no list route for ${collection}`);
    const params = await collectParams(request, url, config.maxBodyBytes);
    delete params.page;
    delete params.per_page;
    delete params[FEED_TOKEN_PARAM];
    const variables = variablesFor(list.route, {}, params);
    const coerced = getVariableValues(schema, list.operation.variableDefinitions ?? [], variables);
    if (coerced.errors) throw new ArgumentsError(coerced.errors);
    const args = getArgumentValues(list.field, list.node, coerced.coerced);
    delete args.page;
    delete args.per_page;
    return args as ExportArgs[C];
  }

  /**
   * One event's calendar, tagged with its text's digest; or the list's, streamed, tagged with
   * the digest of what it depends on (known before its text is written).
   */
  async function feed(
    request: Request,
    url: URL,
    reader: () => Promise<AppContext>,
    single: number | null,
  ): Promise<{ etag: string; body: () => string | AsyncGenerator<string> }> {
    if (single !== null) {
      if (single > 2 ** 31 - 1) throw notFound('event', single);
      const event = await singleEvent(await reader(), single, url.searchParams.get('password'));
      const text = calendarText([event], event.title);
      return { etag: etagOf(text), body: () => text };
    }
    const limit = feedLimit(url);
    const args = await listArgs('events', request, url);
    const list = await icsFeed(await reader(), args, limit, `${siteHost(config)} events`);
    return { etag: etagOf(list.version), body: () => list.chunks() };
  }

  async function ics(
    request: Request,
    url: URL,
    reader: () => Promise<AppContext>,
    single: number | null,
    personal: boolean,
    fetchAPI: { Response: typeof Response; ReadableStream: typeof ReadableStream },
  ): Promise<Response> {
    const found = await feed(request, url, reader, single);
    // A private feed's tag is its user's own: equal bodies of two users never share one.
    const etag = personal
      ? etagOf(`${found.etag} user:${(await reader()).viewer.user?.id ?? ''}`)
      : found.etag;
    const { body } = found;
    const headers = {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `inline; filename="${single === null ? 'events' : `event-${single}`}.ics"`,
      ETag: etag,
      'Cache-Control': personal ? 'private, no-cache' : 'no-cache',
    };
    if (matchesEtag(request.headers.get('if-none-match'), etag)) {
      return new fetchAPI.Response(null, { status: 304, headers });
    }
    if (request.method.toUpperCase() === 'HEAD') {
      return new fetchAPI.Response(null, { status: 200, headers });
    }
    const text = body();
    const stream =
      typeof text === 'string' ? text : textStream(fetchAPI.ReadableStream, text, 'iCalendar feed');
    return new fetchAPI.Response(stream, { status: 200, headers });
  }

  async function csv(
    collection: Collection,
    request: Request,
    url: URL,
    reader: () => Promise<AppContext>,
    personal: boolean,
    fetchAPI: { Response: typeof Response; ReadableStream: typeof ReadableStream },
  ): Promise<Response> {
    const args = await listArgs(collection, request, url);
    const ctx = await reader();
    const head = request.method.toUpperCase() === 'HEAD';
    // HEAD needs the total only: one row.
    const size = head ? 1 : STREAM_PAGE_SIZE;
    const first = await fetchPage(ctx, collection, args, 1, size);
    const headers = {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${collection}.csv"`,
      'X-TEC-Total': String(first.total),
      'X-WP-Total': String(first.total),
      ...(personal ? { 'Cache-Control': 'private, no-store' } : {}),
    };
    if (head) return new fetchAPI.Response(null, { status: 200, headers });
    const pages = remainingPages(ctx, collection, args, first, STREAM_PAGE_SIZE);
    const chunks = csvChunks(COLUMNS[collection] as never[], pages);
    const stream = textStream(fetchAPI.ReadableStream, chunks, 'CSV export');
    return new fetchAPI.Response(stream, { status: 200, headers });
  }

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped as unknown as typeof getEnveloped;
    },
    onSchemaChange({ schema: changed }: { schema: GraphQLSchema }) {
      schema = changed;
      lists.clear();
      const rows = table.filter(
        (r) =>
          r.methods.includes('GET') && r.operation?.type === 'query' && r.present?.endsWith('List'),
      );
      for (const route of compileRoutes(changed, rows)) {
        const collection = route.row.path.slice(1) as Collection;
        if (!COLLECTIONS.includes(collection) || !route.document || !route.field) continue;
        const operation = route.document.definitions[0] as OperationDefinitionNode;
        const node = operation.selectionSet.selections[0] as FieldNode;
        const field = changed.getQueryType()?.getFields()[route.field];
        if (field) lists.set(collection, { route, field, operation, node });
      }
    },
    // Synchronous on every other request (OnRequestPayload).
    onRequest(payload) {
      const { request, url } = payload;
      const method = request.method.toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') return;
      // Calendar apps subscribe to the site's `/events/?ical=1`: the same feed as `/events.ics`.
      const located = isIcalQuery(url)
        ? { namespace: NAMESPACE, rest: '/events.ics' }
        : locate(url.pathname);
      if (!located) return;
      const { rest, namespace } = located;
      const single = /^\/events\/(\d{1,10})\.ics$/.exec(rest);
      const collection = rest.slice(1) as Collection;
      const isCsv = COLLECTIONS.includes(collection) && wantsCsv(request, url);
      if (rest !== '/events.ics' && !single && !isCsv) return;
      requestInfo(request).route = single
        ? '/events/(?P<id>\\d+).ics'
        : isIcalQuery(url)
          ? '/events/?ical=1'
          : isCsv
            ? `${rest} (csv)`
            : rest;
      return serve(payload, {
        namespace,
        collection,
        single: single ? Number(single[1]) : null,
        isCsv,
      });
    },
  };

  /** Answers a feed or an export once `onRequest` has found the request is one. */
  async function serve(
    { request, url, endResponse, fetchAPI, serverContext }: OnRequestPayload,
    { namespace, collection, single, isCsv }: FeedTarget,
  ): Promise<void> {
    let reading: Promise<AppContext> | undefined;
    try {
      const token = feedTokenOf(request, url);
      // One context per request, made on first use (after the parameters are checked).
      const reader = () =>
        (reading ??= context(request, serverContext as Record<string, unknown>, namespace).then(
          (ctx) => (token === null ? ctx : asFeedTokenUser(ctx, token)),
        ));
      const personal = token !== null;
      endResponse(
        isCsv
          ? await csv(collection, request, url, reader, personal, fetchAPI)
          : await ics(request, url, reader, single, personal, fetchAPI),
      );
    } catch (error) {
      endResponse(toResponse(fetchAPI.Response, errorReply(queryFailure(error)), request));
    }
  }
}
