import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';

export type Db = Knex;
export type Dialect = 'mysql' | 'sqlite';

export interface DbOptions {
  databaseUrl: string;
  poolMax?: number;
}

/** The dialect a `DATABASE_URL` designates. */
export function dialectOf(databaseUrl: string): Dialect {
  return databaseUrl.startsWith('mysql:') ? 'mysql' : 'sqlite';
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
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null) => void) {
        // WAL lets readers run while a write commits; FKs are off by default in SQLite.
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        done(null);
      },
    },
  };
}

function mysqlConfig(databaseUrl: string, poolMax: number): Knex.Config {
  const url = new URL(databaseUrl);
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
    },
    pool: { min: 0, max: poolMax },
  };
}

/** Creates the one Knex instance of the process. */
export function createDb({ databaseUrl, poolMax = 10 }: DbOptions): Db {
  const config =
    dialectOf(databaseUrl) === 'mysql'
      ? mysqlConfig(databaseUrl, poolMax)
      : sqliteConfig(databaseUrl);
  return knexFactory(config);
}
