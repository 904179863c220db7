import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { installFastDateStrings } from './mysql-dates';

export type Db = Knex;
export type Dialect = 'mysql' | 'sqlite';

export interface DbOptions {
  databaseUrl: string;
  poolMax?: number;
  /** MySQL: give up opening a connection after this many ms (mysql2 `connectTimeout`). */
  connectTimeoutMs?: number;
  /**
   * Give up waiting for a pooled connection after this many ms (Knex
   * `acquireConnectionTimeout`): a request then fails fast with 503 instead of hanging.
   */
  acquireTimeoutMs?: number;
  /** Where Knex's warnings go (a failed connection attempt, say); default: standard error. */
  warn?: (message: string) => void;
}

/** Defaults of DB_CONNECT_TIMEOUT_MS and DB_ACQUIRE_TIMEOUT_MS (src/config/config.ts). */
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_ACQUIRE_TIMEOUT_MS = 10_000;

/** The dialect a `DATABASE_URL` designates. */
export function dialectOf(databaseUrl: string): Dialect {
  return databaseUrl.startsWith('mysql:') ? 'mysql' : 'sqlite';
}

/** Prepared statements a MySQL connection keeps (hot-read.ts); the least recently used is closed. */
const PREPARED_PER_CONNECTION = 100;

/** The dialect of a Knex instance or transaction, as its client says. */
export function clientDialect(q: Pick<Knex, 'client'>): Dialect {
  return (q.client as { dialect: string }).dialect === 'mysql' ? 'mysql' : 'sqlite';
}

/** The parts of a better-sqlite3 connection set up here. */
interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
  function(
    name: string,
    options: { deterministic: boolean },
    fn: (value: unknown) => unknown,
  ): unknown;
}

interface SqliteStatement {
  /** True while an `iterate()` over it is open: it cannot run again until that ends. */
  readonly busy: boolean;
}

/** Prepared statements kept per connection; past this, the least recently used is dropped. */
const SQLITE_STATEMENT_CACHE = 500;

/**
 * Knex prepares every statement anew at each call; the texts are few (the builder emits the same
 * SQL for the same shape), so each connection keeps its statements, as better-sqlite3 intends
 * (with the hot reads of hot-read.ts, single event reads on SQLite went from ~670 to ~1,200
 * req/s). SQLite re-prepares a kept statement by itself after a schema change.
 *
 * Knex also opens SQLite transactions with a deferred `BEGIN;`, so one that reads before it writes
 * must later upgrade to the write lock, and SQLite refuses that at once (SQLITE_BUSY, without
 * waiting busy_timeout) while another process writes: the CLI, or a WORKERS>1 sibling. Every
 * transaction here writes, so it takes the write lock at BEGIN, where busy_timeout does wait.
 */
function preparedOnce(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const kept = new Map<string, SqliteStatement>();
  conn.prepare = (text: string) => {
    const sql = text === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : text;
    const found = kept.get(sql);
    // A statement still being iterated (an abandoned stream) cannot be reused: prepare another.
    if (found && !found.busy) {
      kept.delete(sql);
      kept.set(sql, found);
      return found;
    }
    const statement = prepare(sql);
    if (!found) {
      if (kept.size >= SQLITE_STATEMENT_CACHE) kept.delete(kept.keys().next().value!);
      kept.set(sql, statement);
    }
    return statement;
  };
}

/**
 * SQLite's `lower()` and `upper()` map ASCII letters only ("Über" stays "Über"), MySQL's every
 * letter (utf8mb4). Searches and name matches compare `lower(column)` with a lowered value
 * (events, venues, organizers, terms), so each connection replaces them with JavaScript's
 * Unicode case mapping: "über" finds "Über" and "élysée" is the venue "Élysée", as on MySQL.
 * No index or stored value depends on them (no expression index uses them), so files written
 * before stay consistent. `LIKE` is left alone: every case-insensitive LIKE here compares lowered
 * text on both sides, and its ASCII folding then changes nothing.
 */
function unicodeCase(conn: SqliteConnection): void {
  const mapped = (map: (text: string) => string) => (value: unknown) => {
    if (value === null || value === undefined) return null;
    return map(Buffer.isBuffer(value) ? value.toString('utf8') : String(value));
  };
  conn.function(
    'lower',
    { deterministic: true },
    mapped((text) => text.toLowerCase()),
  );
  conn.function(
    'upper',
    { deterministic: true },
    mapped((text) => text.toUpperCase()),
  );
}

function sqliteConfig(databaseUrl: string): Knex.Config {
  const filename = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  if (filename !== ':memory:')
    fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  return {
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null) => void) {
        // WAL lets readers run while a write commits; FKs are off by default in SQLite.
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        unicodeCase(conn);
        preparedOnce(conn);
        done(null);
      },
    },
  };
}

function mysqlConfig(databaseUrl: string, poolMax: number, connectTimeout: number): Knex.Config {
  const url = new URL(databaseUrl);
  // DATETIME strings of prepared statements' rows read without mysql2's arrays (mysql-dates.ts).
  installFastDateStrings();
  return {
    client: 'mysql2',
    connection: {
      host: url.hostname,
      port: url.port ? Number(url.port) : 3306,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.replace(/^\//, ''),
      charset: 'utf8mb4',
      // Dates stay `YYYY-MM-DD HH:MM:SS` strings end to end; no JS Date, no driver time zone.
      dateStrings: true,
      timezone: 'Z',
      supportBigNumbers: true,
      connectTimeout,
      maxPreparedStatements: PREPARED_PER_CONNECTION,
    },
    pool: { min: 0, max: poolMax },
  };
}

/**
 * Knex logs every failed connection attempt with a stack; during an outage that is one per
 * request. Keep the first line, and say it at most once per `everyMs` (with how many were
 * suppressed) — the requests themselves still answer 503 and are logged as such. Other
 * warnings pass through.
 */
export function quietWarnings(write: (message: string) => void, everyMs = 5_000) {
  let last = 0;
  let suppressed = 0;
  return (message: unknown): void => {
    const text = String(message).split('\n')[0]!.trim();
    if (!/^(Acquire connection error|Connection Error)/.test(text)) return write(String(message));
    const now = Date.now();
    if (now - last < everyMs) {
      suppressed++;
      return;
    }
    last = now;
    write(suppressed ? `${text} (and ${suppressed} more since the last one)` : text);
    suppressed = 0;
  };
}

/** Creates the one Knex instance of the process. */
export function createDb({
  databaseUrl,
  poolMax = 10,
  connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
  acquireTimeoutMs = DEFAULT_ACQUIRE_TIMEOUT_MS,
  warn = (message) => console.warn(message),
}: DbOptions): Db {
  const config =
    dialectOf(databaseUrl) === 'mysql'
      ? mysqlConfig(databaseUrl, poolMax, connectTimeoutMs)
      : sqliteConfig(databaseUrl);
  return knexFactory({
    ...config,
    acquireConnectionTimeout: acquireTimeoutMs,
    log: { warn: quietWarnings(warn) },
  });
}

/** `DATABASE_URL` fit for logs: the password replaced. */
export function redactedUrl(databaseUrl: string): string {
  if (dialectOf(databaseUrl) !== 'mysql') return databaseUrl;
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}
