import { etagOf, matchesEtag } from '../http/etag';
import { parse, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Config } from '../config/config';
import { refreshLoaders, type AppContext } from '../context';
import { requestInfo, requestLog } from '../http/request-info';
import { notFound } from '../lib/errors';
import { calendarText } from '../transfer/ics/build';
import { NAMESPACE } from '../lib/urls';
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
  COLLECTIONS,
  EXPORT_PAGE_SIZE,
  ExportQueryError,
  SELECTIONS,
  exportListDocument,
  fetchPage,
  remainingPages,
  type Collection,
  type ExportEvent,
  type Executor,
} from '../transfer/export-source';
import { COLUMNS } from '../transfer/csv/columns';
import { csvText } from '../transfer/csv/write';

/**
 * Exports over HTTP, next to the REST routes of `{api_root}/<namespace>` (README "iCalendar
 * feeds" and "CSV over HTTP"):
 *
 * - `GET /events.ics` — an iCalendar feed of the events `GET /events` would list with the same
 *   parameters (filters, default date window, visibility), every page up to `limit` events
 *   (default 1,000, at most 5,000); `GET /events/<id>.ics` — one event (`password` as for the
 *   JSON read). `text/calendar`, with an ETag (If-None-Match → 304) for subscribed calendars.
 * - `GET /events|venues|organizers|categories|tags` with `?format=csv` or `Accept: text/csv` —
 *   every record the list matches (all pages, `page`/`per_page` ignored) as CSV, streamed a page
 *   at a time, as an attachment.
 *
 * Both run the list route's own parameters and coercion (a bad parameter is the same 400) and
 * execute through Yoga's pipeline with the caller's context, like the REST adapter.
 */

type Enveloped = ReturnType<
  YogaServerInstance<Record<string, unknown>, AppContext>['getEnveloped']
>;

export const FEED_LIMIT_DEFAULT = 1000;
export const FEED_LIMIT_MAX = 5000;

const SINGLE_EVENT = parse(`query ExportEvent($id: Int!, $password: String) {
  event(id: $id, password: $password) { ${SELECTIONS.events} } }`);

class Reject extends Error {
  constructor(readonly error: RestError) {
    super(error.body.message);
  }
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
  if (error instanceof ExportQueryError) {
    const [first] = error.result.errors ?? [];
    const mapped = first ? fromGraphQLError(first) : null;
    if (!mapped || mapped.status >= 500) requestLog()?.error({ err: first }, 'export failed');
    return mapped ?? internalError();
  }
  const mapped = fromThrown(error);
  if (!mapped) requestLog()?.error({ err: error }, 'export failed');
  return mapped ?? internalError();
}

function siteHost(config: Config): string {
  return new URL(config.siteUrl).host;
}

export function useExports(config: Config, table: readonly RouteRow[] = ROUTES): Plugin {
  const namespaces = [NAMESPACE, ...config.namespaceAliases];
  let getEnveloped: ((context: Record<string, unknown>) => Enveloped) | undefined;
  const lists = new Map<Collection, { route: CompiledRoute; document: DocumentNode }>();

  function locate(pathname: string): { namespace: string; rest: string } | null {
    for (const namespace of namespaces) {
      const prefix = `${config.apiRoot}/${namespace}`;
      if (pathname.startsWith(`${prefix}/`)) {
        return { namespace, rest: pathname.slice(prefix.length).replace(/\/$/, '') };
      }
    }
    return null;
  }

  /** The caller's context (authenticated as for any request) and an executor over it. */
  async function executor(
    request: Request,
    serverContext: Record<string, unknown>,
    namespace: string,
  ): Promise<Executor> {
    if (!getEnveloped) throw new Error('export plugin used before Yoga initialised it');
    const enveloped = getEnveloped({
      ...serverContext,
      request,
      params: { query: 'query Export { __typename }', variables: {} },
    });
    const ctx = (await enveloped.contextFactory()) as unknown as AppContext;
    ctx.restNamespace = namespace;
    // Exports read pages above the public per_page cap.
    ctx.config = { ...ctx.config, perPageMax: Math.max(ctx.config.perPageMax, EXPORT_PAGE_SIZE) };
    return async (document, variableValues) => {
      refreshLoaders(ctx); // one page of rows in memory at a time
      return (await enveloped.execute({
        schema: enveloped.schema,
        document,
        variableValues,
        contextValue: ctx,
      })) as ExecutionResult;
    };
  }

  async function listVariables(collection: Collection, request: Request, url: URL) {
    const list = lists.get(collection);
    if (!list) throw new Error(`no list route for ${collection}`);
    const params = await collectParams(request, url, config.maxBodyBytes);
    delete params.page;
    delete params.per_page;
    return { list, variables: variablesFor(list.route, {}, params) };
  }

  async function feed(
    request: Request,
    url: URL,
    exec: () => Promise<Executor>,
    single: number | null,
    fetchAPI: { Response: typeof Response },
  ): Promise<Response> {
    let events: ExportEvent[];
    let name = `${siteHost(config)} events`;
    if (single !== null) {
      if (single > 2 ** 31 - 1) throw notFound('event', single);
      const password = url.searchParams.get('password');
      const result = await (await exec())(SINGLE_EVENT, { id: single, password });
      if (result.errors?.length || !result.data) throw new ExportQueryError(result);
      const event = result.data.event as ExportEvent;
      events = [event];
      name = event.title;
    } else {
      const limit = feedLimit(url);
      const { list, variables } = await listVariables('events', request, url);
      const run = await exec();
      const perPage = Math.min(EXPORT_PAGE_SIZE, limit);
      const first = await fetchPage<ExportEvent>(
        run,
        list.document,
        'events',
        variables,
        1,
        perPage,
      );
      events = [];
      for await (const page of remainingPages(
        run,
        list.document,
        'events',
        variables,
        first,
        perPage,
        limit,
      )) {
        events.push(...page);
      }
    }
    const body = calendarText(events, name);
    const etag = etagOf(body);
    const headers = {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `inline; filename="${single === null ? 'events' : `event-${single}`}.ics"`,
      ETag: etag,
      'Cache-Control': 'no-cache',
    };
    if (matchesEtag(request.headers.get('if-none-match'), etag)) {
      return new fetchAPI.Response(null, { status: 304, headers });
    }
    const head = request.method.toUpperCase() === 'HEAD';
    return new fetchAPI.Response(head ? null : body, { status: 200, headers });
  }

  async function csv(
    collection: Collection,
    request: Request,
    url: URL,
    exec: () => Promise<Executor>,
    fetchAPI: { Response: typeof Response; ReadableStream: typeof ReadableStream },
  ): Promise<Response> {
    const { list, variables } = await listVariables(collection, request, url);
    const run = await exec();
    const head = request.method.toUpperCase() === 'HEAD';
    // HEAD needs the total only: one row.
    const size = head ? 1 : EXPORT_PAGE_SIZE;
    const first = await fetchPage(run, list.document, collection, variables, 1, size);
    const headers = {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${collection}.csv"`,
      'X-TEC-Total': String(first.total),
      'X-WP-Total': String(first.total),
    };
    if (head) return new fetchAPI.Response(null, { status: 200, headers });
    const columns = COLUMNS[collection];
    const pages = remainingPages<never>(
      run,
      list.document,
      collection,
      variables,
      first as never,
      EXPORT_PAGE_SIZE,
    );
    const encoder = new TextEncoder();
    let header = true;
    const stream = new fetchAPI.ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await pages.next();
          if (next.done) {
            if (header) controller.enqueue(encoder.encode(csvText(columns, [], true)));
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(csvText(columns, next.value, header)));
          header = false;
        } catch (error) {
          requestLog()?.error({ err: error }, 'CSV export failed while streaming');
          controller.error(error);
        }
      },
      async cancel() {
        await pages.return(undefined);
      },
    });
    return new fetchAPI.Response(stream, { status: 200, headers });
  }

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped as unknown as typeof getEnveloped;
    },
    onSchemaChange({ schema }: { schema: GraphQLSchema }) {
      lists.clear();
      const rows = table.filter(
        (r) =>
          r.methods.includes('GET') && r.operation?.type === 'query' && r.present?.endsWith('List'),
      );
      for (const route of compileRoutes(schema, rows)) {
        const collection = route.row.path.slice(1) as Collection;
        if (!COLLECTIONS.includes(collection) || !route.document) continue;
        lists.set(collection, { route, document: exportListDocument(route.document, collection) });
      }
    },
    async onRequest({ request, url, endResponse, fetchAPI, serverContext }) {
      const method = request.method.toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') return;
      const located = locate(url.pathname);
      if (!located) return;
      const { rest, namespace } = located;
      const single = /^\/events\/(\d{1,10})\.ics$/.exec(rest);
      const collection = rest.slice(1) as Collection;
      const isCsv = COLLECTIONS.includes(collection) && wantsCsv(request, url);
      if (rest !== '/events.ics' && !single && !isCsv) return;
      requestInfo(request).route = single
        ? '/events/(?P<id>\\d+).ics'
        : isCsv
          ? `${rest} (csv)`
          : rest;
      const exec = () => executor(request, serverContext as Record<string, unknown>, namespace);
      try {
        endResponse(
          isCsv
            ? await csv(collection, request, url, exec, fetchAPI)
            : await feed(request, url, exec, single ? Number(single[1]) : null, fetchAPI),
        );
      } catch (error) {
        endResponse(toResponse(fetchAPI.Response, errorReply(queryFailure(error)), request));
      }
    },
  };
}
