import { randomUUID } from 'node:crypto';
import type { Viewer } from '../users';
import type { Config } from '../config';
import type { Db, Dialect } from '../db';
import { NAMESPACE } from '../lib';
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
  /**
   * Drops every cached row: called after a write commits. A method, so the domains reset the
   * loaders without importing this room at run time (it imports them, for the batch functions).
   */
  resetLoaders(): void;
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
    resetLoaders() {
      this.loaders = createLoaders(this.db);
    },
  };
}
