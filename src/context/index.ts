import { randomUUID } from 'node:crypto';
import type { Viewer } from '../users';
import type { Config } from '../config';
import type { Db, Dialect } from '../db';
import { NAMESPACE } from '../lib';
import { RequestBudget } from './budget';
import { createLoaders, type Loaders } from './loaders';

export {
  budgetError,
  deadlineError,
  RequestBudget,
  watchStatements,
  withinBudget,
  type BudgetTrip,
} from './budget';

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
   * The request's runtime budget (SQL statements, deadline), charged while its operation runs
   * (`withinBudget`); unlimited outside HTTP requests.
   */
  budget: RequestBudget;
  /**
   * Checks a guess at a protected record's password (`subject`: `event:12`) and counts a wrong
   * one: HTTP requests get the throttle of src/http/auth-throttle.ts (429 once the caller has
   * used up its guesses there); other callers are not limited.
   */
  passwordGuesses: PasswordGuesses;
  /**
   * Drops every cached row: called after a write commits. A method, so the domains reset the
   * loaders without importing this room at run time (it imports them, for the batch functions).
   */
  resetLoaders(): void;
}

export interface PasswordGuesses {
  /** Whether `given` is `expected`; throws TOO_MANY_REQUESTS when guessing is blocked. */
  check(subject: string, given: string, expected: string): Promise<boolean>;
}

const UNLIMITED_GUESSES: PasswordGuesses = {
  check: async (_subject, given, expected) => given === expected,
};

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
  budget: RequestBudget = RequestBudget.unlimited(),
): AppContext {
  const ctx: AppContext = {
    ...deps,
    viewer,
    // Replaced just below: the loaders of nested lists need the context itself.
    loaders: undefined as unknown as Loaders,
    requestId,
    restNamespace: NAMESPACE,
    budget,
    passwordGuesses: UNLIMITED_GUESSES,
    resetLoaders() {
      this.loaders = createLoaders(this);
    },
  };
  ctx.loaders = createLoaders(ctx);
  return ctx;
}
