import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CAPABILITIES, type Role } from '../../src/auth/roles';
import { ANONYMOUS, viewerFor } from '../../src/auth/viewer';
import { loadConfig, type Config } from '../../src/config';
import { createDb, type Db, type Dialect } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { createApp, type App } from '../../src/server';
import { mysqlAdmin, mysqlDatabaseUrl } from './mysql';

/** The moment tests pretend it is, unless they move the clock (a Saturday morning, UTC). */
export const DEFAULT_NOW = new Date('2026-11-21T08:00:00Z');

export interface GqlResult<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: Record<string, any> }[];
}

export interface GqlOptions {
  /** Run as a user of this role (created on first use); anonymous when omitted. */
  as?: Role;
}

let sequence = 0;

/** One real database (SQLite file or MySQL database) with the app on top, for one test file. */
export class TestEnv {
  app!: App;
  db!: Db;
  config!: Config;
  now: Date = DEFAULT_NOW;
  readonly users = new Map<Role, number>();
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
      ...this.env,
      DATABASE_URL: databaseUrl,
    });
    this.db = createDb({ databaseUrl, poolMax: 4 });
    await migrateLatest(this.db);
    this.app = await createApp({
      config: this.config,
      db: this.db,
      now: () => this.now,
      authenticate: async (request) => {
        const id = Number(request.headers.get('x-test-user-id') ?? 0);
        if (!id) return ANONYMOUS;
        const user = await this.db('users').where({ id }).first();
        return viewerFor({ id: user.id, login: user.login, role: user.role });
      },
    });
  }

  async stop(): Promise<void> {
    await this.db?.destroy();
    await this.cleanup();
  }

  /** The id of a user with this role, created on first use. */
  async userId(role: Role): Promise<number> {
    const known = this.users.get(role);
    if (known) return known;
    if (!(role in CAPABILITIES)) throw new Error(`unknown role ${role}`);
    const login = `${role}-${this.users.size + 1}`;
    const [id] = await this.db('users').insert({
      login,
      display_name: login,
      email: '',
      role,
      created_at: '2026-01-01 00:00:00',
    });
    this.users.set(role, Number(id));
    return Number(id);
  }

  /** Runs a GraphQL operation through the real HTTP pipeline (yoga.fetch). */
  async gql<T = Record<string, any>>(
    query: string,
    variables: Record<string, unknown> = {},
    options: GqlOptions = {},
  ): Promise<GqlResult<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.as) headers['x-test-user-id'] = String(await this.userId(options.as));
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

  /** Runs `fn` and returns how many SQL statements it sent. */
  async countQueries(fn: () => Promise<unknown>): Promise<number> {
    let count = 0;
    const listener = (): void => {
      count++;
    };
    this.db.on('query', listener);
    try {
      await fn();
    } finally {
      this.db.removeListener('query', listener);
    }
    return count;
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
