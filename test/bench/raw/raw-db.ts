import mysql from 'mysql2/promise';

/**
 * The raw baseline's database access: the driver itself, prepared statements, no query builder.
 * mysql2's `execute` prepares each distinct SQL text once per connection and reuses it;
 * better-sqlite3 statements are prepared once per SQL text here.
 */

export type Row = Record<string, unknown>;

/** The part of better-sqlite3 used here (the project has no @types for it; Knex loads it too). */
interface SqliteStatement {
  all(...params: unknown[]): unknown[];
}
interface SqliteDatabase {
  pragma(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
  close(): void;
}
type SqliteOpen = new (file: string, options: { fileMustExist: boolean }) => SqliteDatabase;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as SqliteOpen;

export interface RawDb {
  all(sql: string, params: readonly unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export function openRawDb(databaseUrl: string, poolMax: number): RawDb {
  return databaseUrl.startsWith('mysql:') ? mysqlDb(databaseUrl, poolMax) : sqliteDb(databaseUrl);
}

function mysqlDb(databaseUrl: string, poolMax: number): RawDb {
  const url = new URL(databaseUrl);
  const pool = mysql.createPool({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
    charset: 'utf8mb4',
    // Same wire settings as the service (src/db/knex.ts): dates stay strings.
    dateStrings: true,
    timezone: 'Z',
    connectionLimit: poolMax,
  });
  return {
    async all(sql, params) {
      const [rows] = await pool.execute(sql, params as (string | number | null)[]);
      return rows as Row[];
    },
    close: () => pool.end(),
  };
}

function sqliteDb(databaseUrl: string): RawDb {
  const db = new Database(databaseUrl.replace(/^sqlite:(\/\/)?/, ''), { fileMustExist: true });
  // The service's pragmas (src/db/knex.ts), so both read the same way.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const statements = new Map<string, SqliteStatement>();
  return {
    async all(sql, params) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement.all(...params) as Row[];
    },
    async close() {
      db.close();
    },
  };
}
