import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from './logger';

/**
 * What the HTTP layer knows about one request, shared by its hooks (request id, start time, the
 * route it matched, a Retry-After to send). Keyed by the `Request` object; a hook that replaces
 * the request (`setRequest`) carries the record over with `carryInfo`. While a request is being
 * handled, `requestLog()` anywhere below (REST adapter, error masking, services) returns the
 * app's logger bound to its request id.
 */
export interface RequestInfo {
  /** Echoed in `X-Request-Id`, carried by every log line of the request and by `ctx.requestId`. */
  id: string;
  /** `performance.now()` when the request arrived. */
  start: number;
  /** The request's URL as parsed on arrival. */
  url?: URL;
  /** The matched route (REST pattern, `/graphql`), for the access log. */
  route?: string;
  /** Seconds, for the `Retry-After` header of a 429 or 503. */
  retryAfter?: number;
}

/**
 * What a Yoga `onRequest` hook receives. Hooks stay synchronous for requests that are not theirs
 * and hand the rest to an async function: an async hook costs every request a promise and a turn
 * of the microtask queue, on every path, whoever answers it.
 */
export type OnRequestPayload = Parameters<NonNullable<Plugin['onRequest']>>[0];

const infos = new WeakMap<Request, RequestInfo>();

/** An incoming `X-Request-Id` is kept when it is short and made of safe characters. */
const VALID_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

export function requestInfo(request: Request): RequestInfo {
  let info = infos.get(request);
  if (!info) {
    const incoming = request.headers.get('x-request-id')?.trim() ?? '';
    info = { id: VALID_ID.test(incoming) ? incoming : randomUUID(), start: performance.now() };
    infos.set(request, info);
  }
  return info;
}

/** The request id: the client's valid `X-Request-Id`, else a generated UUID. */
export function requestIdOf(request: Request): string {
  return requestInfo(request).id;
}

export function carryInfo(from: Request, to: Request): void {
  infos.set(to, requestInfo(from));
}

interface Scope {
  /** The app's logger; `child` is it bound to the request id, made on first use. */
  logger: Logger;
  child?: Logger;
  info: RequestInfo;
}

const scope = new AsyncLocalStorage<Scope>();
let processLogger: Logger | undefined;

/** Runs the handling of `request` with its logger in scope. */
export function inRequestScope<T>(logger: Logger, request: Request, work: () => T): T {
  processLogger ??= logger;
  const info = requestInfo(request);
  return scope.run({ logger, info }, work);
}

/**
 * The logger of the request being handled (its lines carry `request_id`); outside a request, the
 * logger of the first app created in this process, or undefined before any.
 */
export function requestLog(): Logger | undefined {
  const store = scope.getStore();
  if (!store) return processLogger;
  // Most requests log nothing but their access line: no child logger for those.
  store.child ??= store.logger.child({ request_id: store.info.id });
  return store.child;
}
