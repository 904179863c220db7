import { randomUUID } from 'node:crypto';
import type { Viewer } from '../users/viewer';
import type { Config } from '../config/config';
import type { Db, Dialect } from '../db/knex';
import { NAMESPACE } from '../lib/urls';
import { createLoaders, type Loaders } from './loaders';

/** What a request's resolvers and services get. Plain data: no HTTP, no GraphQL. */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  viewer: Viewer;
  /** Fresh per request; replaced after each write so reads see the new state. */
  loaders: Loaders;
  now: () => Date;
  requestId: string;
  /**
   * REST namespace that REST addresses in results use (`rest_url`, list links, term `urls`):
   * the one a REST request came in on, `calendar/events/v1` otherwise.
   */
  restNamespace: string;
}

export interface ContextDeps {
  config: Config;
  db: Db;
  dialect: Dialect;
  now: () => Date;
}

export function createContext(
  deps: ContextDeps,
  viewer: Viewer,
  requestId: string = randomUUID(),
): AppContext {
  return {
    ...deps,
    viewer,
    loaders: createLoaders(deps.db),
    requestId,
    restNamespace: NAMESPACE,
  };
}

/** Drops every cached row: called after a write commits. */
export function refreshLoaders(ctx: AppContext): void {
  ctx.loaders = createLoaders(ctx.db);
}
