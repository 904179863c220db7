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
}

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
    if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9._-]+)+$/.test(alias) || alias === 'calendar/events/v1') {
      throw new ConfigError(
        `NAMESPACE_ALIASES must be a comma-separated list of namespaces such as "tribe/events/v1", other than "calendar/events/v1", got "${alias}".`,
      );
    }
  }
  return aliases;
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
  return {
    port,
    host: str(env, 'HOST', '0.0.0.0'),
    databaseUrl: checkDatabaseUrl(str(env, 'DATABASE_URL', 'sqlite:./data/calendar.sqlite')),
    dbPoolMax: int(env, 'DB_POOL_MAX', 10, 1, 1000),
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
  };
}
