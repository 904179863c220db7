import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db';
import { DomainError } from '../lib';

/**
 * The runtime budget of one GraphQL or REST operation: at most `maxStatements` SQL statements,
 * none sent after `deadline`. The cost estimate (src/graphql/cost.ts) refuses what looks too
 * big before any SQL; this is the backstop for what the estimate cannot see.
 *
 * Every statement, whatever sends it (Knex builders, transactions, hot reads), is announced as
 * Knex's `query` event before it goes to the database. `watchStatements` listens to it and
 * charges the budget of the operation running in the current async context (`withinBudget`);
 * when the budget is spent it throws, which rejects the statement before it is sent and releases
 * its pooled connection, so the operation's resolvers fail fast one after another. The deadline
 * is checked here, at each statement, rather than by a timer: while SQLite runs statement after
 * statement synchronously the event loop never reaches its timers (src/http/timeout.ts).
 */

/** Why a budget stopped an operation: kept on the budget, so the transports answer once. */
export type BudgetTrip = 'deadline' | 'statements';

export class RequestBudget {
  statements = 0;
  tripped: BudgetTrip | null = null;

  constructor(
    /** Most statements; Infinity: no cap. */
    readonly maxStatements: number,
    /** `performance.now()` after which no statement is sent; Infinity: none. */
    readonly deadline: number,
    /** REQUEST_TIMEOUT_MS, for the message. */
    readonly timeoutMs: number,
  ) {}

  /** No cap, no deadline: the CLI, scripts and service-level tests. */
  static unlimited(): RequestBudget {
    return new RequestBudget(Infinity, Infinity, 0);
  }

  /** Charges one statement; throws once the budget is spent. */
  charge(): void {
    if (this.tripped === null) {
      if (performance.now() > this.deadline) this.tripped = 'deadline';
      else if (this.statements >= this.maxStatements) this.tripped = 'statements';
      else {
        this.statements++;
        return;
      }
    }
    throw budgetError(this);
  }
}

/**
 * The request timeout as a domain error: 503 `rest_request_timeout` (GraphQL `REQUEST_TIMEOUT`)
 * with `Retry-After`, whether the HTTP layer's timer or the budget noticed it first.
 */
export function deadlineError(ms: number): DomainError {
  return new DomainError(
    'SERVICE_UNAVAILABLE',
    'request_timeout',
    `The request was not answered within ${ms} ms. A write may still have been applied: read the record before retrying.`,
    undefined,
    { retryAfter: 1 },
  );
}

/**
 * The domain error of a spent budget: the deadline is the request timeout; the statement cap a
 * 503 too (`rest_service_unavailable`): the service declines the rest of the work, and the
 * client should ask for less.
 */
export function budgetError(budget: RequestBudget): DomainError {
  if (budget.tripped === 'deadline') return deadlineError(budget.timeoutMs);
  return new DomainError(
    'SERVICE_UNAVAILABLE',
    'service_unavailable',
    `The request needed more than ${budget.maxStatements} SQL statements and was stopped. Ask for fewer nested lists or smaller pages.`,
  );
}

const current = new AsyncLocalStorage<RequestBudget>();

/** Runs `work` charging its statements to `budget`. */
export function withinBudget<T>(budget: RequestBudget, work: () => T): T {
  return current.run(budget, work);
}

/**
 * Ending a transaction must always reach the database (a refused COMMIT or ROLLBACK would leave
 * the connection inside a transaction): these are neither charged nor refused.
 */
const TRANSACTION_CONTROL =
  /^\s*(?:begin|start\s+transaction|commit|rollback|savepoint|release)\b/i;

const watched = new WeakSet<Db>();

/** Charges every statement sent through `db` to the budget in scope, if any (once per handle). */
export function watchStatements(db: Db): void {
  if (watched.has(db)) return;
  watched.add(db);
  db.on('query', (query: { sql?: unknown }) => {
    const budget = current.getStore();
    if (!budget) return;
    if (typeof query.sql === 'string' && TRANSACTION_CONTROL.test(query.sql)) return;
    budget.charge();
  });
}
