import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import type { Db } from '../db';
import { matchesEtag } from './etag';
import { renderedOf, ResponseStore, cacheKey, type CachedResponse } from './response-cache';
import {
  databaseGenerations,
  processGenerations,
  type GenerationSource,
} from './response-cache-generation';
import { requestInfo, type OnRequestPayload } from './request-info';

interface Pending {
  key: string;
  generation: string;
}

/**
 * The response cache in front of the REST contract (docs/performance.md "Response cache"): an
 * anonymous GET or HEAD under the API root is answered from memory while the data generation is
 * the one its entry was rendered at — no context, no operation, no SQL beyond the generation —
 * and `If-None-Match` naming the entry's tag answers 304. Otherwise the request goes on and a
 * 200 the REST adapter renders is kept. `RESPONSE_CACHE` picks the generation source.
 */
export function useResponseCache(
  config: Config,
  deps: { db: Db; now: () => Date },
  source: GenerationSource | undefined = generationSource(config, deps.db),
): Plugin<Record<string, unknown>> {
  if (!source) return {};
  const generations = source;
  // RESPONSE_CACHE_MB of bodies per process (docs/performance.md "Memory").
  const store = new ResponseStore(config.responseCacheMb * 1024 * 1024);
  const pending = new WeakMap<Request, Pending>();
  const root = `${config.apiRoot}/`;

  /** The cached answer of a cacheable request, or a note to keep the one the adapter renders. */
  async function answer(
    { request, endResponse, fetchAPI }: OnRequestPayload,
    key: string,
  ): Promise<void> {
    let generation: string;
    try {
      generation = await generations.current();
    } catch {
      // The database is unreachable: the adapter answers as it does without a cache (503).
      return;
    }
    const entry = store.get(key, generation);
    if (!entry) {
      pending.set(request, { key, generation });
      return;
    }
    if (entry.route !== undefined) requestInfo(request).route = entry.route;
    endResponse(hit(fetchAPI.Response, entry, request));
  }

  return {
    // Synchronous for what is not cacheable (OnRequestPayload).
    onRequest(payload) {
      if (!payload.url.pathname.startsWith(root)) return;
      const key = cacheKey(payload.request, payload.url, deps.now());
      return key === null ? undefined : answer(payload, key);
    },
    onResponse({ request, response }) {
      const waiting = pending.get(request);
      if (!waiting) return;
      pending.delete(request);
      const rendered = renderedOf(response);
      if (!rendered) return;
      store.set(waiting.key, {
        ...rendered,
        generation: waiting.generation,
        route: requestInfo(request).route,
      });
    },
  };
}

function generationSource(config: Config, db: Db): GenerationSource | undefined {
  if (config.responseCache === 'off') return undefined;
  return config.responseCache === 'process' ? processGenerations(db) : databaseGenerations(db);
}

function hit(ResponseCtor: typeof Response, entry: CachedResponse, request: Request): Response {
  const headers = { ...entry.headers };
  if (matchesEtag(request.headers.get('if-none-match'), entry.etag)) {
    return new ResponseCtor(null, { status: 304, headers });
  }
  const body = request.method === 'HEAD' ? null : entry.body;
  return new ResponseCtor(body, { status: 200, headers });
}
