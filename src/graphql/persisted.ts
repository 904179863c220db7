import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { print, type GraphQLSchema } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { compileRoutes } from '../rest/compile';
import { ROUTES, type RouteRow } from '../rest/routes';

/**
 * Persisted operations (docs/graphql.md "Persisted operations"): with
 * GRAPHQL_PERSISTED_OPERATIONS naming a JSON file of `{ "<sha256 of the document>": "<document>" }`
 * (graphql-codegen's client preset writes one with `persistedDocuments: true`), /graphql runs
 * only the operations of that list, named by hash: `documentId`, or Apollo's
 * `extensions.persistedQuery.sha256Hash`. A request that sends a document's text is refused.
 * The REST routes' operations are on the list automatically, under the hash of their printed
 * text (the REST adapter and the SOFA view run their operations without going through
 * /graphql's request parsing, so they work either way). Off (every document runs) by default.
 */

export type OperationStore = ReadonlyMap<string, string>;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The allowlist file, checked: a JSON object of hex SHA-256 → document text. */
export function readOperationFile(file: string): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `GRAPHQL_PERSISTED_OPERATIONS: cannot read ${file} as JSON (${(error as Error).message}).`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(
      `GRAPHQL_PERSISTED_OPERATIONS: ${file} must hold one JSON object of hash → document.`,
    );
  }
  const store = new Map<string, string>();
  for (const [hash, document] of Object.entries(parsed)) {
    if (typeof document !== 'string') {
      throw new Error(`GRAPHQL_PERSISTED_OPERATIONS: the entry "${hash}" of ${file} is no string.`);
    }
    store.set(hash, document);
  }
  return store;
}

/** The REST routes' operations, as `hash → printed text`. */
export function restOperations(
  schema: GraphQLSchema,
  routes: readonly RouteRow[],
): Map<string, string> {
  const store = new Map<string, string>();
  for (const route of compileRoutes(schema, routes)) {
    if (!route.document) continue;
    const text = print(route.document);
    store.set(sha256(text), text);
  }
  return store;
}

/**
 * The operation id a request names: `documentId` (in a JSON body, or in a GET's query string,
 * which Yoga's parameters leave out), else Apollo's persisted-query extension.
 */
function operationId(
  params: GraphQLParams & { documentId?: unknown },
  request: Request,
): string | null {
  const documentId =
    params.documentId ??
    (request.method === 'GET' ? new URL(request.url).searchParams.get('documentId') : null);
  if (typeof documentId === 'string') return documentId.replace(/^sha256:/, '');
  const persisted = (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)
    ?.persistedQuery;
  return typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash : null;
}

/** The allowlist plugin when GRAPHQL_PERSISTED_OPERATIONS is set; a plugin doing nothing else. */
export function usePersistedOperationsOf(
  config: Pick<Config, 'graphqlPersistedOperations'>,
  routes: readonly RouteRow[] = ROUTES,
): Plugin {
  if (config.graphqlPersistedOperations === '') return {};
  const store = readOperationFile(config.graphqlPersistedOperations);
  const persisted = usePersistedOperations({
    getPersistedOperation: (key) => store.get(key) ?? null,
    extractPersistedOperationId: operationId,
    customErrors: {
      notFound: {
        message: 'This operation is not on the list of persisted operations.',
        extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
      },
      keyNotFound: {
        message: 'Send the id of a persisted operation (documentId), not a document.',
        extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED', http: { status: 400 } },
      },
      persistedQueryOnly: {
        message: 'This server runs persisted operations only: send their documentId.',
        extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
      },
    },
  });
  return {
    ...persisted,
    onSchemaChange({ schema }) {
      for (const [hash, text] of restOperations(schema, routes)) store.set(hash, text);
    },
  };
}
