import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { globalId } from '../lib';
import { etagOf, fixedFileResponse, type FixedFile } from '../http/etag';
import { requestInfo, type OnRequestPayload } from '../http/request-info';

/**
 * GraphiQL from the service's own files (docs/graphql.md "GraphiQL, SDL and codegen"): the
 * bundle of @graphql-yoga/render-graphiql (GraphiQL, React, the Monaco editor and its workers, no
 * CDN) served under `/graphql/assets/`, with ETags, and a page that loads only those files: no
 * request leaves the server, and the page's Content-Security-Policy allows this origin alone
 * (src/http/security-headers.ts). The bundle (~9 MB) is read on the first request for it.
 */

export const GRAPHIQL_ASSETS = '/graphql/assets';

/** The files served under GRAPHIQL_ASSETS (fixed paths: their own metrics `route` label). */
const ASSET_FILES = [
  'start.js',
  'graphiql.js',
  'graphiql.css',
  'editor.worker.js',
  'json.worker.js',
  'graphql.worker.js',
  'favicon.ico',
] as const;

export const GRAPHIQL_PATHS: readonly string[] = ASSET_FILES.map((f) => `${GRAPHIQL_ASSETS}/${f}`);

/** The calendar's title and example operations, one tab each (the first is the default query). */
const EXAMPLES: { query: string; variables?: string }[] = [
  {
    query: `# Calendar GraphQL API (docs/graphql.md). Run with ▶ or Ctrl-Enter.
# The next five events, with typed start times, venues and categories.
query UpcomingEvents {
  events(per_page: 5) {
    total
    events {
      id
      node_id
      title
      starts_at
      timezone
      venue {
        venue
        city
      }
      categories {
        name
      }
    }
  }
}
`,
  },
  {
    query: `# Events per month of the default window (the events list's filters apply).
query EventsPerMonth($categories: [String!]) {
  event_counts(group_by: MONTH, categories: $categories) {
    key
    label
    count
  }
}
`,
    variables: '{ "categories": null }',
  },
  {
    query: `# Soft lookups: a missing record is null with a NOT_FOUND error; siblings still answer.
query Lookups($id: Int!, $node: ID!) {
  event(id: $id) {
    title
    starts_at
  }
  node(id: $node) {
    __typename
    node_id
  }
  category_by_slug(slug: "concerts") {
    name
    count
  }
}
`,
    variables: '{ "id": 1, "node": "NODE_ID" }',
  },
];

export function graphiqlOptions(config: Config): GraphiQLOptions {
  return {
    title: `Events calendar GraphQL · ${new URL(config.siteUrl).host}`,
    defaultQuery: EXAMPLES[0]!.query,
    defaultTabs: EXAMPLES.map((e) => ({
      query: e.query,
      variables: e.variables?.replace('NODE_ID', globalId(config, 1)) ?? null,
    })),
  };
}

/** JSON inside `<script type="application/json">`: nothing in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The page Yoga answers browsers on GET /graphql (`renderGraphiQL`): no inline script, so the
 * policy needs no 'unsafe-inline' for scripts; the options travel as inert JSON.
 */
export function renderGraphiQLPage(options: GraphiQLOptions): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
    <link rel="icon" href="${GRAPHIQL_ASSETS}/favicon.ico" />
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>GraphiQL needs JavaScript.</noscript>
    <div id="root"></div>
    <script id="graphiql-options" type="application/json">${scriptJson(options)}</script>
    <script src="${GRAPHIQL_ASSETS}/start.js"></script>
    <script src="${GRAPHIQL_ASSETS}/graphiql.js"></script>
  </body>
</html>
`;
}

/**
 * Runs before the bundle: tells Monaco where its workers are (files of this origin, not blob:
 * URLs), then renders GraphiQL once the bundle has run.
 */
const START = `(function () {
  var base = ${JSON.stringify(GRAPHIQL_ASSETS)};
  var workers = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) {
      return base + '/' + (workers[label] || workers.editorWorkerService);
    },
  };
  document.addEventListener('DOMContentLoaded', function () {
    var options = JSON.parse(document.getElementById('graphiql-options').textContent);
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
  });
})();
`;

interface Bundle {
  js: string;
  css: string;
  favicon: string;
  editorWorkerService: string;
  jsonWorker: string;
  graphqlWorker: string;
}

/** A subpath export, which the project's TypeScript resolution does not see: typed here. */
const BUNDLE = '@graphql-yoga/render-graphiql/graphiql';

const JS = 'text/javascript; charset=utf-8';

function asset(body: Buffer, contentType: string): FixedFile {
  return { body, contentType, etag: etagOf(body) };
}

async function loadAssets(): Promise<Map<string, FixedFile>> {
  const bundle = (await import(BUNDLE)) as Bundle;
  const text = (s: string, type: string) => asset(Buffer.from(s, 'utf8'), type);
  const icon = /^data:([^;,]+);base64,(.*)$/s.exec(bundle.favicon);
  return new Map([
    ['start.js', text(START, JS)],
    ['graphiql.js', text(bundle.js, JS)],
    ['graphiql.css', text(bundle.css, 'text/css; charset=utf-8')],
    ['editor.worker.js', text(bundle.editorWorkerService, JS)],
    ['json.worker.js', text(bundle.jsonWorker, JS)],
    ['graphql.worker.js', text(bundle.graphqlWorker, JS)],
    [
      'favicon.ico',
      icon ? asset(Buffer.from(icon[2]!, 'base64'), icon[1]!) : text('', 'image/x-icon'),
    ],
  ]);
}

/** Serves GraphiQL's files under GRAPHIQL_ASSETS (GET and HEAD, ETag, 304). */
export function useGraphiqlAssets(): Plugin {
  let assets: Promise<Map<string, FixedFile>> | undefined;
  async function serve({ request, url, fetchAPI, endResponse }: OnRequestPayload): Promise<void> {
    assets ??= loadAssets().catch((error: unknown) => {
      assets = undefined;
      throw error;
    });
    const found = (await assets).get(url.pathname.slice(GRAPHIQL_ASSETS.length + 1));
    if (!found) return;
    requestInfo(request).route = url.pathname;
    endResponse(fixedFileResponse(fetchAPI.Response, request, found));
  }
  return {
    onRequest(payload) {
      if (!payload.url.pathname.startsWith(`${GRAPHIQL_ASSETS}/`)) return;
      const { method } = payload.request;
      return method === 'GET' || method === 'HEAD' ? serve(payload) : undefined;
    },
  };
}
