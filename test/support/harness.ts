import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiToken } from '../../src/users/credentials';
import { CAPABILITIES, type Role } from '../../src/users/roles';
import { ANONYMOUS, viewerFor } from '../../src/users/viewer';
import { createContext, type AppContext } from '../../src/context';
import { loadConfig, type Config } from '../../src/config/config';
import { createDb, type Db, type Dialect } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { createApp, type App } from '../../src/http/server';
import { mysqlAdmin, mysqlDatabaseUrl } from './mysql';

/** The moment tests pretend it is, unless they move the clock (a Saturday morning, UTC). */
export const DEFAULT_NOW = new Date('2026-11-21T08:00:00Z');

export interface GqlResult<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: Record<string, any> }[];
}

/** Who a request runs as: a role (its test user, with a real bearer token) or nobody. */
export type Caller = Role | 'anonymous';

/** A statement Knex sent, as its `query` event tells it. */
export interface SentQuery {
  sql: string;
  bindings: unknown[];
}

/** Runs `fn` on any Knex instance `db` and returns its result and the statements sent meanwhile. */
export async function queriesOn<T>(
  db: { on: Db['on']; removeListener: Db['removeListener'] },
  fn: () => Promise<T>,
): Promise<[T, SentQuery[]]> {
  const queries: SentQuery[] = [];
  const listener = (query: { sql: string; bindings?: readonly unknown[] }): void => {
    queries.push({ sql: query.sql, bindings: [...(query.bindings ?? [])] });
  };
  db.on('query', listener);
  try {
    return [await fn(), queries];
  } finally {
    db.removeListener('query', listener);
  }
}

export interface GqlOptions {
  /**
   * Run as the test user of this role (created on first use, authenticated with a real
   * `Authorization: Bearer` token); `'anonymous'` sends no credentials. Reads may omit it
   * (anonymous); mutations must say who runs them.
   */
  as?: Caller;
  /** A raw `Authorization` header instead (wrong or revoked credentials, Basic auth …). */
  authorization?: string;
}

/** A test user and the bearer token minted for it. */
export interface TestUser {
  id: number;
  login: string;
  token: string;
}

let sequence = 0;

/** One real database (SQLite file or MySQL database) with the app on top, for one test file. */
export class TestEnv {
  app!: App;
  db!: Db;
  config!: Config;
  now: Date = DEFAULT_NOW;
  /** One user per role; `administrator` is the `admin` created at first start. */
  readonly users = new Map<Role, TestUser>();
  private cleanup: () => Promise<void> = async () => {};

  constructor(
    readonly dialect: Dialect,
    private readonly env: Record<string, string> = {},
  ) {}

  async start(): Promise<void> {
    const name = `cal_${process.env.TEST_RUN_ID ?? 'x'}_${process.pid}_${sequence++}`.toLowerCase();
    let databaseUrl: string;
    if (this.dialect === 'mysql') {
      await mysqlAdmin([
        `DROP DATABASE IF EXISTS \`${name}\``,
        `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`,
      ]);
      databaseUrl = mysqlDatabaseUrl(name);
      this.cleanup = () => mysqlAdmin([`DROP DATABASE IF EXISTS \`${name}\``]);
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-test-'));
      databaseUrl = `sqlite:${path.join(dir, `${name}.sqlite`)}`;
      this.cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    this.config = loadConfig({
      SITE_URL: 'http://calendar.test',
      // Image URLs are fetched on write: tests serve theirs locally (support/image-server.ts).
      IMAGE_FETCH_ALLOW: '127.0.0.1',
      ...this.env,
      DATABASE_URL: databaseUrl,
    });
    this.db = createDb({ databaseUrl, poolMax: 4 });
    await migrateLatest(this.db);
    // The real authenticator: every test goes through `Authorization` headers.
    this.app = await createApp({ config: this.config, db: this.db, now: () => this.now });
  }

  async stop(): Promise<void> {
    await this.db?.destroy();
    await this.cleanup();
  }

  /**
   * The test user of this role, created on first use with an API token minted by the
   * credentials module. `administrator` is the `admin` that start-up created (id 1, the author
   * of fixture rows); it gets a token of its own.
   */
  async user(role: Role): Promise<TestUser> {
    const known = this.users.get(role);
    if (known) return known;
    if (!(role in CAPABILITIES)) throw new Error(`unknown role ${role}`);
    const made = await this.createUser(role, role === 'administrator' ? 'admin' : `${role}-1`);
    this.users.set(role, made);
    return made;
  }

  /** The id of the test user of this role, created on first use. */
  async userId(role: Role): Promise<number> {
    return (await this.user(role)).id;
  }

  /** A user of `role` named `login` (reused when it exists) with a new bearer token. */
  async createUser(role: Role, login: string): Promise<TestUser> {
    let row = await this.db('users').where({ login }).first();
    if (!row) {
      await this.db('users').insert({
        login,
        display_name: login,
        email: '',
        role,
        created_at: '2026-01-01 00:00:00',
      });
      row = await this.db('users').where({ login }).first();
    }
    const id = Number(row.id);
    const token = await createApiToken(this.db, id, 'test', this.now);
    return { id, login, token: token.secret };
  }

  /** A service-level context for tests that call services directly, as this caller. */
  async context(as: Caller): Promise<AppContext> {
    if (as === 'anonymous') return createContext(this.app.deps, ANONYMOUS);
    const user = await this.user(as);
    return createContext(this.app.deps, viewerFor({ id: user.id, login: user.login, role: as }));
  }

  /** The `Authorization` header of a caller (none for anonymous). */
  async authHeaders(as: Caller | undefined): Promise<Record<string, string>> {
    if (as === undefined || as === 'anonymous') return {};
    return { authorization: `Bearer ${(await this.user(as)).token}` };
  }

  /** Runs a GraphQL operation through the real HTTP pipeline (yoga.fetch). */
  async gql<T = Record<string, any>>(
    query: string,
    variables: Record<string, unknown> = {},
    options: GqlOptions = {},
  ): Promise<GqlResult<T>> {
    if (/^\s*mutation\b/.test(query) && options.as === undefined && !options.authorization) {
      throw new Error("a mutation must say who runs it: { as: 'anonymous' } or { as: <role> }");
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...(await this.authHeaders(options.as)),
    };
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    const response = await this.app.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GqlResult<T>;
  }

  /** Like `gql` but fails the test on any error, returning `data`. */
  async ok<T = Record<string, any>>(
    query: string,
    variables: Record<string, unknown> = {},
    options: GqlOptions = {},
  ): Promise<T> {
    const result = await this.gql<T>(query, variables, options);
    if (result.errors?.length)
      throw new Error(`GraphQL errors: ${JSON.stringify(result.errors, null, 2)}`);
    return result.data as T;
  }

  /** Runs `fn` and returns the SQL of every statement it sent, in order. */
  async statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
    return (await this.queriesOf(fn)).map((query) => query.sql);
  }

  /** Runs `fn` and returns the SQL statements it sent, with their bindings, in order. */
  async queriesOf(fn: () => Promise<unknown>): Promise<SentQuery[]> {
    return (await queriesOn(this.db, fn))[1];
  }

  /** Runs `fn` and returns how many SQL statements it sent. */
  async countQueries(fn: () => Promise<unknown>): Promise<number> {
    return (await this.statementsOf(fn)).length;
  }

  /** A checksum-free snapshot of every table, to prove a rejected write changed nothing. */
  async snapshot(): Promise<string> {
    const tables = [
      'users',
      'post_ids',
      'images',
      'venues',
      'organizers',
      'events',
      'terms',
      'event_terms',
      'event_organizers',
    ];
    const parts: string[] = [];
    for (const t of tables)
      parts.push(JSON.stringify(await this.db(t).select('*').orderByRaw('1')));
    return parts.join('\n');
  }
}

function dialects(): Dialect[] {
  const wanted = (process.env.TEST_DATABASES ?? 'sqlite,mysql').split(',').map((s) => s.trim());
  return (['sqlite', 'mysql'] as Dialect[]).filter((d) => wanted.includes(d));
}

/**
 * Declares `fn`'s tests once per database. The MySQL copy is skipped (and reported as skipped)
 * only when global setup found MySQL unreachable and REQUIRE_MYSQL is not set.
 */
export function describeEachDb(
  title: string,
  fn: (env: TestEnv) => void,
  envVars: Record<string, string> = {},
): void {
  for (const dialect of dialects()) {
    const skip = dialect === 'mysql' && process.env.TEST_MYSQL !== 'on';
    (skip ? describe.skip : describe)(`${title} [${dialect}]`, () => {
      const env = new TestEnv(dialect, envVars);
      beforeAll(() => env.start(), 60_000);
      afterAll(() => env.stop());
      fn(env);
    });
  }
}
