import os from 'node:os';
import ipaddr from 'ipaddr.js';
import { IANAZone } from 'luxon';

/** Typed, validated configuration. This module is the only reader of `process.env`. */
export interface Config {
  /** TCP port to listen on. */
  port: number;
  /** Interface to listen on. */
  host: string;
  /** `sqlite:<path>` (embedded default) or `mysql://user:password@host:port/name`. */
  databaseUrl: string;
  /** Connection pool ceiling for MySQL. */
  dbPoolMax: number;
  /** MySQL: opening a connection fails after this many ms. */
  dbConnectTimeoutMs: number;
  /** A request waiting longer than this many ms for a pooled connection gets 503. */
  dbAcquireTimeoutMs: number;
  /** Start-up keeps retrying an unreachable database for this many ms, then exits 1. */
  dbStartupTimeoutMs: number;
  /** SIGTERM/SIGINT: in-flight requests get this many ms to finish before the process exits. */
  shutdownTimeoutMs: number;
  /**
   * Processes serving the API (`node:cluster`, src/http/cluster.ts); 1: one process, no cluster.
   */
  workers: number;
  /** Bearer token of the first administrator, used only when the users table is empty. */
  adminToken?: string;
  /** Public site address used in `url` fields, without a trailing slash. */
  siteUrl: string;
  /** IANA time zone of the site: default event time zone and the default date window. */
  siteTimezone: string;
  /** Prefix of the REST namespace, e.g. `/wp-json`. */
  apiRoot: string;
  /** Default `per_page` of every list. */
  perPageDefault: number;
  /** `per_page` above this is silently capped. */
  perPageMax: number;
  /** Site default currency symbol for costs that carry none. */
  currencySymbol: string;
  /** Where the default symbol goes: `prefix` or `postfix`. */
  currencyPosition: 'prefix' | 'postfix';
  /** REST request bodies above this many bytes are refused with 413. */
  maxBodyBytes: number;
  /** Origins allowed by CORS (`*` = any); empty: no CORS headers. */
  corsOrigins: string[];
  /** Extra REST namespaces (e.g. `tribe/events/v1`) serving the same routes. */
  namespaceAliases: string[];
  /** The SOFA view (`{api_root}/calendar/rest`) also exposes mutations; read-only otherwise. */
  sofaMutations: boolean;
  /** Limits and security (docs/security.md); `src/http/` applies them. */
  /** Longest list accepted in a parameter or GraphQL variable. */
  maxArrayLength: number;
  /** GraphQL: deepest selection, most aliases, most tokens per document. */
  graphqlMaxDepth: number;
  graphqlMaxAliases: number;
  graphqlMaxTokens: number;
  /** JSON file of persisted GraphQL operations (hash → document): only those run; '' = off. */
  graphqlPersistedOperations: string;
  /**
   * Highest estimated cost of one GraphQL operation (rows it may read: page sizes multiplied
   * through the nesting, src/graphql/cost.ts), for anonymous and for authenticated callers.
   */
  graphqlCostAnonymous: number;
  graphqlCostAuthenticated: number;
  /**
   * A request not answered within this many milliseconds gets 503, and its operation sends no
   * SQL statement after that (0: no limit).
   */
  requestTimeoutMs: number;
  /** Most SQL statements one GraphQL or REST operation may send (src/context/budget.ts). */
  requestMaxStatements: number;
  /** Longest request target (path + query) in bytes; longer → 414. */
  maxUrlLength: number;
  /** node:http limit on the request line and headers together (bytes); beyond → 431. */
  maxHeaderBytes: number;
  /**
   * Rejected credentials allowed per client address, per login and per (client, credential) in
   * one window, before rejections answer 429 (src/http/auth-throttle.ts).
   */
  authRateLimitClient: number;
  authRateLimitLogin: number;
  authRateLimitCredential: number;
  /** Length of that window, in seconds. */
  authRateLimitWindowSeconds: number;
  /** Wrong event passwords allowed per client and event in one such window, before 429. */
  eventPasswordRateLimit: number;
  /** Client address from the last `X-Forwarded-For` entry (behind one reverse proxy). */
  trustProxy: boolean;
  /** `Strict-Transport-Security` max-age in seconds; 0: header not sent. */
  hstsMaxAge: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: LogLevel;
  /** `GET /metrics` requires `Authorization: Bearer <metricsToken>` when set (src/ops/). */
  metricsToken?: string;
  /**
   * Redis shared by every instance (`redis://[user:password@]host:6379[/db]`): throttle counters
   * and other cross-instance state (src/http/shared-store.ts); unset: kept in each process.
   */
  redisUrl?: string;
  /**
   * Image URLs are fetched on write (src/posts/image-fetch.ts, docs/security.md "Image
   * fetching"): host names, IP addresses and CIDR ranges that may be fetched although private
   * (tests, intranets); the whole fetch must end within the timeout and send at most the bytes.
   */
  imageFetchAllow: string[];
  imageFetchTimeoutMs: number;
  imageFetchMaxBytes: number;
  /**
   * The response cache of anonymous REST reads (src/http/response-cache-plugin.ts): `on` checks
   * the database's write generation per request (sees every writer), `process` only this
   * process's writes (no statement; for a sole writer), `off` renders every request.
   */
  responseCache: 'on' | 'process' | 'off';
  /** Megabytes of rendered bodies the response cache keeps per process (least recent out). */
  responseCacheMb: number;
}

/** One of `values`, the first by default. */
function oneOf<T extends string>(env: Env, name: string, values: readonly [T, ...T[]]): T {
  const value = str(env, name, values[0]);
  const found = values.find((v) => v === value);
  if (found === undefined) {
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${value}".`);
  }
  return found;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}".`);
  }
  return Number(raw);
}

function str(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? fallback : raw.trim();
}

function checkDatabaseUrl(url: string): string {
  if (/^sqlite:.+/.test(url)) return url;
  if (/^mysql:\/\/[^/]+\/[A-Za-z0-9_$-]+(\?.*)?$/.test(url)) return url;
  throw new ConfigError(
    `DATABASE_URL must be "sqlite:<path>" or "mysql://user:password@host:3306/name", got "${url}".`,
  );
}

function checkUrl(name: string, value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${value}".`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${value}".`);
  }
  return value.replace(/\/+$/, '');
}

function csv(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function checkOrigins(origins: string[]): string[] {
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin)) {
      throw new ConfigError(
        `CORS_ORIGINS must be a comma-separated list of origins such as "https://app.example" or "*", got "${origin}".`,
      );
    }
  }
  return origins;
}

function checkNamespaces(aliases: string[]): string[] {
  for (const alias of aliases) {
    if (
      !/^[A-Za-z0-9_-]+(\/[A-Za-z0-9._-]+)+$/.test(alias) ||
      alias === 'calendar/events/v1' ||
      /^calendar\/rest(\/|$)/.test(alias)
    ) {
      throw new ConfigError(
        `NAMESPACE_ALIASES must be a comma-separated list of namespaces such as "tribe/events/v1", other than "calendar/events/v1" and the SOFA view's "calendar/rest", got "${alias}".`,
      );
    }
  }
  return aliases;
}

/** IMAGE_FETCH_ALLOW items: a host name, an IP address or a CIDR range (`10.0.0.0/8`). */
function checkFetchAllow(items: string[]): string[] {
  const host = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;
  for (const item of items) {
    if (!host.test(item) && !ipaddr.isValid(item) && !ipaddr.isValidCIDR(item)) {
      throw new ConfigError(
        `IMAGE_FETCH_ALLOW must be a comma-separated list of host names, IP addresses or CIDR ranges such as "10.0.0.0/8", got "${item}".`,
      );
    }
  }
  return items.map((item) => item.toLowerCase());
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0 (true or false), got "${env[name]}".`);
}

/**
 * WORKERS: a positive integer, or `auto` for one per core this process may use. An in-memory
 * SQLite database lives inside one process, so the workers would each see an empty one.
 */
function workers(env: Env, databaseUrl: string): number {
  const raw = str(env, 'WORKERS', '1').toLowerCase();
  const count = raw === 'auto' ? os.availableParallelism() : Number(raw);
  if (raw !== 'auto' && (!/^\d+$/.test(raw) || count < 1 || count > 1024)) {
    throw new ConfigError(
      `WORKERS must be "auto" or an integer between 1 and 1024, got "${env.WORKERS}".`,
    );
  }
  if (count > 1 && /^sqlite:(\/\/)?:memory:$/.test(databaseUrl)) {
    throw new ConfigError(
      `WORKERS must be 1 with an in-memory SQLite database (each process would have its own), got "${env.WORKERS}".`,
    );
  }
  return count;
}

/** A secret: never echoed in the error. Same rule as `user:add --token`. */
function checkAdminToken(env: Env): string | undefined {
  const raw = env.ADMIN_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 20 || /\s/.test(raw)) {
    throw new ConfigError(
      `ADMIN_TOKEN must be at least 20 characters without spaces, got ${raw.length} character(s).`,
    );
  }
  return raw;
}

/** An optional secret of `min`+ characters without spaces; never echoed in the error. */
function secret(env: Env, name: string, min: number): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < min || /\s/.test(raw)) {
    throw new ConfigError(
      `${name} must be at least ${min} characters without spaces, got ${raw.length} character(s).`,
    );
  }
  return raw;
}

/** Reads and validates configuration; throws `ConfigError` with one sentence naming the variable. */
export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 4000, 0, 65535);
  const siteTimezone = str(env, 'SITE_TIMEZONE', 'UTC');
  if (!IANAZone.isValidZone(siteTimezone)) {
    throw new ConfigError(
      `SITE_TIMEZONE must be an IANA time zone such as "Europe/Paris", got "${siteTimezone}".`,
    );
  }
  let apiRoot = str(env, 'API_ROOT', '/wp-json');
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(apiRoot)) {
    throw new ConfigError(`API_ROOT must be a path starting with "/", got "${apiRoot}".`);
  }
  apiRoot = apiRoot.replace(/\/+$/, '');
  const perPageMax = int(env, 'PER_PAGE_MAX', 50, 1, 1000);
  const currencyPosition = str(env, 'CURRENCY_POSITION', 'prefix');
  if (currencyPosition !== 'prefix' && currencyPosition !== 'postfix') {
    throw new ConfigError(
      `CURRENCY_POSITION must be "prefix" or "postfix", got "${currencyPosition}".`,
    );
  }
  const databaseUrl = checkDatabaseUrl(str(env, 'DATABASE_URL', 'sqlite:./data/calendar.sqlite'));
  return {
    port,
    host: str(env, 'HOST', '0.0.0.0'),
    databaseUrl,
    dbPoolMax: int(env, 'DB_POOL_MAX', 10, 1, 1000),
    dbConnectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
    dbAcquireTimeoutMs: int(env, 'DB_ACQUIRE_TIMEOUT_MS', 10_000, 100, 600_000),
    dbStartupTimeoutMs: int(env, 'DB_STARTUP_TIMEOUT_MS', 30_000, 0, 3_600_000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 3_600_000),
    workers: workers(env, databaseUrl),
    adminToken: checkAdminToken(env),
    siteUrl: checkUrl('SITE_URL', str(env, 'SITE_URL', `http://localhost:${port}`)),
    siteTimezone,
    apiRoot,
    perPageDefault: Math.min(int(env, 'PER_PAGE_DEFAULT', 10, 1, 1000), perPageMax),
    perPageMax,
    currencySymbol: str(env, 'CURRENCY_SYMBOL', '$'),
    currencyPosition,
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 1_048_576, 1, 1_073_741_824),
    corsOrigins: checkOrigins(csv(env, 'CORS_ORIGINS')),
    namespaceAliases: checkNamespaces(csv(env, 'NAMESPACE_ALIASES')),
    sofaMutations: flag(env, 'SOFA_MUTATIONS'),
    maxArrayLength: int(env, 'MAX_ARRAY_LENGTH', 100, 1, 100_000),
    graphqlMaxDepth: int(env, 'GRAPHQL_MAX_DEPTH', 7, 2, 100),
    graphqlMaxAliases: int(env, 'GRAPHQL_MAX_ALIASES', 15, 0, 1000),
    graphqlPersistedOperations: str(env, 'GRAPHQL_PERSISTED_OPERATIONS', ''),
    graphqlMaxTokens: int(env, 'GRAPHQL_MAX_TOKENS', 5_000, 100, 1_000_000),
    graphqlCostAnonymous: int(env, 'GRAPHQL_COST_ANONYMOUS', 5_000, 10, 100_000_000),
    graphqlCostAuthenticated: int(env, 'GRAPHQL_COST_AUTHENTICATED', 20_000, 10, 100_000_000),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 0, 3_600_000),
    requestMaxStatements: int(env, 'REQUEST_MAX_STATEMENTS', 1_000, 1, 10_000_000),
    maxUrlLength: int(env, 'MAX_URL_LENGTH', 8_192, 256, 1_048_576),
    maxHeaderBytes: int(env, 'MAX_HEADER_BYTES', 16_384, 1_024, 1_048_576),
    authRateLimitClient: int(env, 'AUTH_RATE_LIMIT_CLIENT', 20, 1, 1_000_000),
    authRateLimitLogin: int(env, 'AUTH_RATE_LIMIT_LOGIN', 10, 1, 1_000_000),
    authRateLimitCredential: int(env, 'AUTH_RATE_LIMIT_CREDENTIAL', 5, 1, 1_000_000),
    authRateLimitWindowSeconds: int(env, 'AUTH_RATE_LIMIT_WINDOW', 900, 1, 86_400),
    eventPasswordRateLimit: int(env, 'EVENT_PASSWORD_RATE_LIMIT', 10, 1, 1_000_000),
    trustProxy: flag(env, 'TRUST_PROXY'),
    hstsMaxAge: int(env, 'HSTS_MAX_AGE', 0, 0, 100_000_000),
    logLevel: logLevel(env),
    metricsToken: secret(env, 'METRICS_TOKEN', 16),
    redisUrl: redisUrl(env),
    imageFetchAllow: checkFetchAllow(csv(env, 'IMAGE_FETCH_ALLOW')),
    imageFetchTimeoutMs: int(env, 'IMAGE_FETCH_TIMEOUT_MS', 10_000, 100, 600_000),
    imageFetchMaxBytes: int(env, 'IMAGE_FETCH_MAX_BYTES', 10_485_760, 1_024, 1_073_741_824),
    responseCache: oneOf(env, 'RESPONSE_CACHE', ['on', 'process', 'off'] as const),
    responseCacheMb: int(env, 'RESPONSE_CACHE_MB', 16, 1, 4_096),
  };
}

/**
 * LOG_LEVEL; default info, but silent under jest (NODE_ENV=test). Tests build their configuration
 * from explicit variables, so there LOG_LEVEL and NODE_ENV also come from the process.
 */
function redisUrl(env: Env): string | undefined {
  const raw = str(env, 'REDIS_URL', '');
  if (raw === '') return undefined;
  if (!/^rediss?:\/\/[^/\s]+(\/\d*)?$/.test(raw)) {
    throw new ConfigError(
      `REDIS_URL must be "redis://[user:password@]host:6379[/db]" (or rediss://); the value given is not (not echoed: it may hold a password).`,
    );
  }
  return raw;
}

function logLevel(env: Env): LogLevel {
  const testing = (env.NODE_ENV ?? process.env.NODE_ENV) === 'test';
  const fallback = (testing ? process.env.LOG_LEVEL : undefined) ?? (testing ? 'silent' : 'info');
  const raw = str(env, 'LOG_LEVEL', fallback).toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}".`);
  }
  return raw as LogLevel;
}
