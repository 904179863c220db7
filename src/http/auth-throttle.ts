import { createHash } from 'node:crypto';
import type { Config } from '../config';
import { DomainError } from '../lib';
import { memoryFailureCounter, sharedFailureCounter, type FailureCounter } from './failure-counter';
import { requestInfo } from './request-info';
import { sharedStore } from './shared-store';

/**
 * Brute-force protection on credentials (docs/security.md "Credential throttling"). A request
 * whose `Authorization` is rejected (UNAUTHENTICATED) counts as a failure of:
 *
 * - its client and that very credential (`AUTH_RATE_LIMIT_CREDENTIAL`): past the limit, the
 *   client sending it again gets 429 without it being looked up — a revoked token a script keeps
 *   sending, a guesser repeating itself;
 * - its client (`AUTH_RATE_LIMIT_CLIENT`) and, for HTTP Basic, its login, whatever the client
 *   (`AUTH_RATE_LIMIT_LOGIN`): past either limit, every further *rejected* credential answers 429
 *   instead of 401.
 *
 * A valid credential is always looked up and always served, whatever the counters say: a burst
 * of wrong tokens from a shared office or proxy address locks out the wrong tokens, never the
 * right ones. Tokens and application passwords are random and long (src/users/credentials.ts),
 * so it is their entropy, not a lockout, that makes guessing hopeless; the limits stop the load
 * and the noise of scripted guessing. Successes are never counted, requests without credentials
 * never throttled. Windows are fixed, from a key's first failure (`AUTH_RATE_LIMIT_WINDOW`).
 *
 * Event passwords are chosen by people, so they are guessable: `passwordGuesses` gives each
 * request a guard that counts wrong guesses per client and event (`EVENT_PASSWORD_RATE_LIMIT`
 * per window); past the limit every guess from that client at that event, the right one
 * included, answers 429 until the window ends.
 *
 * Counters sit behind `FailureCounter`: in this process's memory, or with `REDIS_URL` in Redis,
 * shared by every instance (`throttleCounters`): failures split across instances add up to one
 * limit, and a lockout holds whichever instance answers. Credentials are checked,
 * then counted after they fail, so a burst of parallel wrong ones may overshoot a limit by at
 * most its size; password guesses are counted first, so they cannot.
 */

export interface ThrottleLimits {
  perCredential: number;
  perClient: number;
  perLogin: number;
  windowSeconds: number;
  perEventPassword: number;
}

export function throttleLimits(config: Config): ThrottleLimits {
  return {
    perCredential: config.authRateLimitCredential,
    perClient: config.authRateLimitClient,
    perLogin: config.authRateLimitLogin,
    windowSeconds: config.authRateLimitWindowSeconds,
    perEventPassword: config.eventPasswordRateLimit,
  };
}

/**
 * 429. REST maps the code to its status; GraphQL clients get the same status and Retry-After
 * (src/graphql/errors.ts, from `retryAfter`).
 */
export function tooManyRequests(
  retryAfter: number,
  what = 'failed authentication attempts',
): DomainError {
  return new DomainError(
    'TOO_MANY_REQUESTS',
    'too_many_requests',
    `Too many ${what}; try again in ${retryAfter} second(s).`,
    undefined,
    { retryAfter },
  );
}

/** The guard of one request's password guesses (the `PasswordGuesses` of src/context). */
export interface PasswordGuard {
  check(subject: string, given: string, expected: string): Promise<boolean>;
}

/** Counters of failures, one set per process (or per shared store). */
export interface ThrottleCounters {
  credentials: FailureCounter;
  clients: FailureCounter;
  logins: FailureCounter;
  guesses: FailureCounter;
}

function memoryCounters(limits: ThrottleLimits): ThrottleCounters {
  return {
    credentials: memoryFailureCounter('credential', limits.windowSeconds),
    clients: memoryFailureCounter('client', limits.windowSeconds),
    logins: memoryFailureCounter('login', limits.windowSeconds),
    guesses: memoryFailureCounter('guess', limits.windowSeconds),
  };
}

/**
 * The counters of `config`: shared through Redis when `REDIS_URL` is set (see
 * `sharedFailureCounter` for Redis being down), else this process's own.
 */
export function throttleCounters(config: Config): ThrottleCounters {
  const limits = throttleLimits(config);
  if (!config.redisUrl) return memoryCounters(limits);
  const store = sharedStore(config);
  const counter = (prefix: string) => sharedFailureCounter(store, prefix, limits.windowSeconds);
  return {
    credentials: counter('credential'),
    clients: counter('client'),
    logins: counter('login'),
    guesses: counter('guess'),
  };
}

export class AuthThrottle {
  private readonly counters: ThrottleCounters;

  constructor(
    private readonly limits: ThrottleLimits,
    counters?: ThrottleCounters,
  ) {
    this.counters = counters ?? memoryCounters(limits);
  }

  /**
   * Runs `attempt` (the authentication of `request`) and counts its failure; answers 429 for a
   * rejected credential past a limit. `client`: the caller's address, null when unknown
   * (in-process calls: only their login is counted then, as nothing tells their clients apart).
   */
  async guard<T>(request: Request, client: string | null, attempt: () => Promise<T>): Promise<T> {
    const header = request.headers.get('authorization');
    if (header === null || header.trim() === '') return attempt();
    const { credentials, clients, logins } = this.counters;
    const credential = client === null ? null : `${client} ${fingerprint(header)}`;
    if (credential !== null) {
      const known = await credentials.get(credential);
      if (known.failures >= this.limits.perCredential) refuse(request, known.retryAfter);
    }
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'UNAUTHENTICATED') throw error;
      const login = basicLogin(header);
      const counts = await Promise.all([
        credential === null ? null : credentials.fail(credential),
        client === null ? null : clients.fail(client),
        login === null ? null : logins.fail(login),
      ]);
      const limits = [this.limits.perCredential, this.limits.perClient, this.limits.perLogin];
      // Past a limit, the failure that went over it answers 429 already.
      const waits = counts.map((count, i) =>
        count !== null && count.failures > limits[i]! ? count.retryAfter : 0,
      );
      const wait = Math.max(...waits);
      if (wait > 0) refuse(request, wait);
      throw error;
    }
  }

  /**
   * The password guard of one request from `client` (null: an in-process call; those share one
   * key, so that a guessable secret is never left unguarded).
   */
  passwordGuesses(request: Request, client: string | null): PasswordGuard {
    const guesses = this.counters.guesses;
    const limit = this.limits.perEventPassword;
    return {
      check: async (subject, given, expected) => {
        const key = `${client ?? IN_PROCESS} ${subject}`;
        // Counted before it is checked, taken back when right: guesses sent in parallel (aliases
        // of one GraphQL document) cannot overshoot the limit.
        const count = await guesses.fail(key);
        if (count.failures > limit) refuse(request, count.retryAfter, 'wrong passwords');
        if (!sameSecret(given, expected)) return false;
        await guesses.forgive(key);
        return true;
      },
    };
  }
}

/** The client of password guesses without an address (tests' `yoga.fetch`). */
const IN_PROCESS = 'in-process';

/** Throws 429, with the Retry-After the HTTP layer sends (src/http/plugin.ts). */
function refuse(request: Request, retryAfter: number, what?: string): never {
  requestInfo(request).retryAfter = retryAfter;
  throw tooManyRequests(retryAfter, what);
}

/** A credential's key: its hash, never the secret itself. */
function fingerprint(header: string): string {
  return createHash('sha256').update(header.trim()).digest('base64url');
}

/** Compared by their hashes: the time taken says nothing about how much of a guess was right. */
function sameSecret(given: string, expected: string): boolean {
  const hash = (text: string) => createHash('sha256').update(text).digest('hex');
  return hash(given) === hash(expected);
}

/** The login of an HTTP Basic credential (case-insensitive), else null. */
function basicLogin(header: string): string | null {
  const match = /^basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header.trim());
  if (!match) return null;
  const text = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 1 ? null : text.slice(0, colon).toLowerCase();
}

/**
 * The client's address: the socket's remote address, or behind a trusted reverse proxy
 * (TRUST_PROXY=1) the last `X-Forwarded-For` entry, the one that proxy appended. Null for
 * in-process calls (tests' `yoga.fetch` without a server context).
 */
export function clientAddress(
  request: Request,
  serverContext: Record<string, unknown>,
  trustProxy: boolean,
): string | null {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .pop();
    if (last) return last.slice(0, 64);
  }
  const req = serverContext.req as { socket?: { remoteAddress?: string } } | undefined;
  return req?.socket?.remoteAddress ?? null;
}
