import { createHash } from 'node:crypto';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { SharedStore } from './shared-store';

/**
 * Failures counted per key in fixed windows (a key's window starts at its first failure), the
 * store behind the credential and password throttles (auth-throttle.ts): in this process's
 * memory, or in Redis (`sharedFailureCounter`) so that every instance counts the same failures.
 */
export interface FailureCounter {
  /** The failures of `key` in its current window, and the seconds until that window ends. */
  get(key: string): Promise<FailureCount>;
  /** Counts one failure of `key`; answers the count after it. */
  fail(key: string): Promise<FailureCount>;
  /** Takes back one failure of `key` (an attempt counted first that proved right). */
  forgive(key: string): Promise<void>;
}

export interface FailureCount {
  failures: number;
  /** Whole seconds until the window ends (≥ 1 while there are failures), 0 without failures. */
  retryAfter: number;
}

const NONE: FailureCount = { failures: 0, retryAfter: 0 };

/** A counter over a rate-limiter-flexible store: its `get`, `penalty` and `reward`. */
export function failureCounter(store: RateLimiterAbstract): FailureCounter {
  const count = (res: { consumedPoints: number; msBeforeNext: number } | null): FailureCount =>
    res && res.consumedPoints > 0
      ? {
          failures: res.consumedPoints,
          retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        }
      : NONE;
  return {
    get: async (key) => count(await store.get(storeKey(key))),
    fail: async (key) => count(await store.penalty(storeKey(key))),
    forgive: async (key) => {
      await store.reward(storeKey(key));
    },
  };
}

/** An in-process counter with windows of `windowSeconds`, its keys under `prefix`. */
export function memoryFailureCounter(prefix: string, windowSeconds: number): FailureCounter {
  // `points` plays no part: the throttles compare the counts with their own limits.
  return failureCounter(
    new RateLimiterMemory({ keyPrefix: prefix, points: 1, duration: windowSeconds }),
  );
}

/**
 * A counter in the shared store's Redis, counted by every instance; in memory without Redis.
 * While Redis does not answer, failures are counted in this process instead (the insurance
 * store: each instance then holds the limits on its own — neither open to unlimited guessing
 * nor refusing everyone while Redis is down), and Redis takes over again once it is back.
 */
export function sharedFailureCounter(
  store: SharedStore,
  prefix: string,
  windowSeconds: number,
): FailureCounter {
  if (!store.redis) return memoryFailureCounter(prefix, windowSeconds);
  return failureCounter(
    new RateLimiterRedis({
      storeClient: store.redis,
      keyPrefix: `${store.keyPrefix}throttle:${prefix}`,
      points: 1,
      duration: windowSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({
        keyPrefix: prefix,
        points: 1,
        duration: windowSeconds,
      }),
    }),
  );
}

/** Keys stay short whatever the client sends. */
function storeKey(key: string): string {
  return key.length <= 64 ? key : createHash('sha256').update(key).digest('hex');
}
