import { createHash } from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Config } from '../config';
import { DomainError } from '../lib';
import { requestInfo } from './request-info';

/**
 * Brute-force protection on credentials. Failed attempts (a credential sent and rejected with
 * UNAUTHENTICATED) are counted per client address and per login (the login of an HTTP Basic
 * credential); once a client or a login has failed `AUTH_RATE_LIMIT_CLIENT` /
 * `AUTH_RATE_LIMIT_LOGIN` times within `AUTH_RATE_LIMIT_WINDOW` seconds (a fixed window from its
 * first failure), every request sending credentials from that client or for that login answers
 * 429 `rest_too_many_requests` with `Retry-After` until the window ends — right or wrong, so the
 * answer tells an attacker nothing. Successful authentications are not counted and anonymous
 * requests are never throttled. Counters live in this process's memory (one per instance).
 *
 * Checking, then counting after the failure, lets a burst of parallel attempts overshoot the
 * limit by at most the burst's size, instead of throttling busy legitimate clients that
 * authenticate in parallel.
 */

export interface ThrottleLimits {
  perClient: number;
  perLogin: number;
  windowSeconds: number;
}

export function throttleLimits(config: Config): ThrottleLimits {
  return {
    perClient: config.authRateLimitClient,
    perLogin: config.authRateLimitLogin,
    windowSeconds: config.authRateLimitWindowSeconds,
  };
}

/**
 * 429. REST maps the code to its status; GraphQL clients get the same status and Retry-After
 * (src/graphql/errors.ts, from `retryAfter`).
 */
export function tooManyRequests(retryAfter: number): DomainError {
  return new DomainError(
    'TOO_MANY_REQUESTS',
    'too_many_requests',
    `Too many failed authentication attempts; try again in ${retryAfter} second(s).`,
    undefined,
    { retryAfter },
  );
}

export class AuthThrottle {
  private readonly clients: RateLimiterMemory;
  private readonly logins: RateLimiterMemory;

  constructor(private readonly limits: ThrottleLimits) {
    this.clients = new RateLimiterMemory({
      keyPrefix: 'client',
      points: limits.perClient,
      duration: limits.windowSeconds,
    });
    this.logins = new RateLimiterMemory({
      keyPrefix: 'login',
      points: limits.perLogin,
      duration: limits.windowSeconds,
    });
  }

  /**
   * Runs `attempt` (the authentication of `request`) unless its client or login is blocked;
   * counts its failure. `client`: the caller's address, null when unknown (in-process calls).
   */
  async guard<T>(request: Request, client: string | null, attempt: () => Promise<T>): Promise<T> {
    const header = request.headers.get('authorization');
    if (header === null || header.trim() === '') return attempt();
    const login = basicLogin(header);
    const wait = Math.max(
      await this.blockedFor(this.clients, client, this.limits.perClient),
      await this.blockedFor(this.logins, login, this.limits.perLogin),
    );
    if (wait > 0) {
      requestInfo(request).retryAfter = wait;
      throw tooManyRequests(wait);
    }
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') {
        if (client !== null) await this.clients.penalty(key(client));
        if (login !== null) await this.logins.penalty(key(login));
      }
      throw error;
    }
  }

  /** Seconds until `name` may try again; 0 when it is not blocked. */
  private async blockedFor(
    limiter: RateLimiterMemory,
    name: string | null,
    limit: number,
  ): Promise<number> {
    if (name === null) return 0;
    const state = await limiter.get(key(name));
    if (!state || state.consumedPoints < limit) return 0;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  }
}

/** Keys stay short whatever the client sends. */
function key(name: string): string {
  return name.length <= 64 ? name : createHash('sha256').update(name).digest('hex');
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
