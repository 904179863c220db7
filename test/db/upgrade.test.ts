import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { loadConfig } from '../../src/config/config';
import { createDb, type Db, type Dialect } from '../../src/db/knex';
import { pendingMigrations } from '../../src/db/migrate';
import { migrateWhenReachable } from '../../src/db/startup';
import { createApp, type App } from '../../src/http/server';
import { mysqlAdmin, mysqlDatabaseUrl, mysqlServerUrl } from '../support/mysql';

/**
 * Issue 14's upgrade acceptance: a SQLite file and a MySQL database created and filled by the
 * last main before the house redesign (353e29f; test/fixtures/upgrade/make-fixtures.sh) start
 * under today's code — migrations as at start-up, the app on top — with every record intact:
 * each old row unchanged, the old credentials still valid, GraphQL reading what the old code
 * read (expected-<dialect>.json), REST linking the same venue, organizers and terms, and new
 * writes continuing the old id spaces.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'upgrade');
const SAMPLE = fs.readFileSync(path.join(FIXTURES, 'sample.graphql'), 'utf8');
const EVENTS = '/wp-json/calendar/events/v1/events';

interface Expected {
  env: Record<string, string>;
  credentials: {
    admin_token: string;
    editor_token: string;
    revoked_token: string;
    editor_app_password: { login: string; password: string };
  };
  counts: Record<string, number>;
  sample: {
    events: { total: number; events: SampleEvent[] };
    venues: { venues: { id: number; venue: string }[] };
    organizers: { organizers: { id: number; organizer: string }[] };
    categories: { categories: { id: number; name: string }[] };
  };
}

interface SampleEvent {
  id: number;
  slug: string;
  start_date: string;
  end_date: string;
  venue: { id: number } | null;
  organizer: { id: number }[];
  categories: { id: number }[];
  tags: { id: number }[];
}

type Rows = Record<string, Record<string, unknown>[]>;

function dialects(): Dialect[] {
  const wanted = (process.env.TEST_DATABASES ?? 'sqlite,mysql').split(',').map((s) => s.trim());
  return (['sqlite', 'mysql'] as Dialect[]).filter((d) => wanted.includes(d));
}

/** A private copy of the fixture; returns its DATABASE_URL and how to throw it away. */
async function openFixture(dialect: Dialect): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-upgrade-'));
    const file = path.join(dir, 'previous-main.sqlite');
    fs.copyFileSync(path.join(FIXTURES, 'previous-main.sqlite'), file);
    return { url: `sqlite:${file}`, drop: async () => fs.rmSync(dir, { recursive: true }) };
  }
  const name = `cal_${process.env.TEST_RUN_ID ?? 'x'}_${process.pid}_upgrade`.toLowerCase();
  await mysqlAdmin([
    `DROP DATABASE IF EXISTS \`${name}\``,
    `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`,
  ]);
  const server = mysqlServerUrl();
  const conn = await mysql.createConnection({
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username),
    password: decodeURIComponent(server.password),
    database: name,
    multipleStatements: true,
  });
  try {
    await conn.query(fs.readFileSync(path.join(FIXTURES, 'previous-main.mysql.sql'), 'utf8'));
  } finally {
    await conn.end();
  }
  return {
    url: mysqlDatabaseUrl(name),
    drop: () => mysqlAdmin([`DROP DATABASE IF EXISTS \`${name}\``]),
  };
}

async function tableNames(db: Db, dialect: Dialect): Promise<string[]> {
  if (dialect === 'sqlite') {
    const rows: { name: string }[] = await db.raw(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    );
    return rows.map((r) => r.name).sort();
  }
  const [rows] = (await db.raw("SHOW FULL TABLES WHERE Table_type = 'BASE TABLE'")) as [
    Record<string, string>[],
  ];
  return rows.map((r) => Object.values(r)[0]!).sort();
}

/** Every row of every table, in a stable order (no primary-key knowledge needed). */
async function allRows(db: Db, tables: string[]): Promise<Rows> {
  const out: Rows = {};
  for (const table of tables) {
    const rows: Record<string, unknown>[] = await db(table).select('*');
    out[table] = rows.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

/** `rows` with only `columns`: what a migration added since is not the old data. */
function project(rows: Record<string, unknown>[], columns: string[]): Record<string, unknown>[] {
  return rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])));
}

for (const dialect of dialects()) {
  const skip = dialect === 'mysql' && process.env.TEST_MYSQL !== 'on';
  (skip ? describe.skip : describe)(`a database filled by the pre-house main [${dialect}]`, () => {
    const expected = JSON.parse(
      fs.readFileSync(path.join(FIXTURES, `expected-${dialect}.json`), 'utf8'),
    ) as Expected;
    const onDisk = fs
      .readdirSync(path.join(__dirname, '..', '..', 'migrations'))
      .filter((f) => /^\d{14}_\w+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    let fixture: { url: string; drop: () => Promise<void> };
    let db: Db;
    let app: App;
    let tables: string[];
    let before: Rows;
    let applied: string[];

    beforeAll(async () => {
      fixture = await openFixture(dialect);
      const config = loadConfig({ ...expected.env, DATABASE_URL: fixture.url });
      db = createDb({ databaseUrl: fixture.url, poolMax: 4 });
      tables = await tableNames(db, dialect);
      before = await allRows(db, tables);
      // What src/main.ts does at start: migrate, then build the app (first-administrator check
      // included).
      applied = await migrateWhenReachable(db, { databaseUrl: fixture.url, timeoutMs: 0 });
      app = await createApp({ config, db });
    }, 60_000);

    afterAll(async () => {
      await db?.destroy();
      await fixture?.drop();
    });

    const request = async (
      url: string,
      authorization: string,
      init: RequestInit = {},
    ): Promise<{ status: number; body: any }> => {
      const response = await app.yoga.fetch(`http://localhost${url}`, {
        ...init,
        headers: { 'content-type': 'application/json', authorization },
      });
      return { status: response.status, body: await response.json() };
    };
    const gql = (query: string, authorization: string, variables: object = {}) =>
      request('/graphql', authorization, {
        method: 'POST',
        body: JSON.stringify({ query, variables }),
      });
    const bearer = (token: string): string => `Bearer ${token}`;
    const admin = (): string => bearer(expected.credentials.admin_token);

    it('is the fixture the old code described', () => {
      const counts = Object.fromEntries(tables.map((t) => [t, before[t]!.length]));
      expect(counts).toEqual(expected.counts);
    });

    it('applies only the migrations added since, after the old ones', async () => {
      const old = before.knex_migrations!.map((r) => String(r.name)).sort();
      expect(old.length).toBeGreaterThan(0);
      expect(applied).toEqual(onDisk.filter((name) => !old.includes(name)));
      expect(await pendingMigrations(db)).toEqual([]);
      const now = (await db('knex_migrations').select('id', 'name', 'batch', 'migration_time'))
        .map((r) => ({ ...r }))
        .filter((r) => old.includes(String(r.name)));
      expect(now).toEqual(expect.arrayContaining(before.knex_migrations!));
      expect(now).toHaveLength(old.length);
    });

    it('keeps every row of every old table, column for column', async () => {
      const after = await allRows(db, tables);
      for (const table of tables) {
        if (table === 'knex_migrations' || table === 'knex_migrations_lock') continue;
        const columns = Object.keys(before[table]![0] ?? {});
        const old = before[table]!;
        expect({ table, rows: project(after[table]!, columns) }).toEqual({ table, rows: old });
      }
    });

    it('reads the sample through GraphQL exactly as the old code did', async () => {
      const { status, body } = await gql(SAMPLE, admin());
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(body.data).toEqual(expected.sample);
    });

    it('reads the same events, venues, organizers and terms through REST', async () => {
      const events = expected.sample.events.events;
      expect(events.length).toBe(expected.sample.events.total);
      for (const event of events) {
        const { status, body } = await request(`${EVENTS}/${event.id}`, admin());
        expect({ id: event.id, status }).toEqual({ id: event.id, status: 200 });
        expect({
          id: body.id,
          slug: body.slug,
          start_date: body.start_date,
          end_date: body.end_date,
          venue: Array.isArray(body.venue) ? null : body.venue.id,
          organizer: body.organizer.map((o: { id: number }) => o.id),
          categories: body.categories.map((c: { id: number }) => c.id),
          tags: body.tags.map((t: { id: number }) => t.id),
        }).toEqual({
          id: event.id,
          slug: event.slug,
          start_date: event.start_date,
          end_date: event.end_date,
          venue: event.venue?.id ?? null,
          organizer: event.organizer.map((o) => o.id),
          categories: event.categories.map((c) => c.id),
          tags: event.tags.map((t) => t.id),
        });
      }
    });

    it('accepts the old credentials and still refuses the revoked one', async () => {
      const viewer = 'query { viewer { login role } }';
      const { credentials } = expected;
      expect((await gql(viewer, admin())).body.data.viewer).toEqual({
        login: 'admin',
        role: 'administrator',
      });
      expect((await gql(viewer, bearer(credentials.editor_token))).body.data.viewer).toEqual({
        login: 'editor',
        role: 'editor',
      });
      const { login, password } = credentials.editor_app_password;
      const basic = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
      expect((await gql(viewer, basic)).body.data.viewer.login).toBe('editor');
      const revoked = await gql(viewer, bearer(credentials.revoked_token));
      expect(revoked.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(revoked.body.data?.viewer).toBeUndefined();
    });

    it('continues the old id spaces and links old records by id and name', async () => {
      const old = expected.sample;
      const venue = old.venues.venues[0]!;
      const organizer = old.organizers.organizers[0]!;
      const category = old.categories.categories[0]!;
      const { body } = await gql(
        `mutation ($input: EventInput!) {
          create_event(input: $input) {
            id venue { id } organizer { id } categories { id name }
          }
        }`,
        admin(),
        {
          input: {
            title: 'Written after the upgrade',
            start_date: '2027-02-01 10:00:00',
            end_date: '2027-02-01 11:00:00',
            venue: { id: venue.id },
            organizer: [{ id: organizer.id }],
            categories: [category.name],
          },
        },
      );
      expect(body.errors).toBeUndefined();
      const created = body.data.create_event;
      const oldIds = before.post_ids!.map((r) => Number(r.id));
      expect(created.id).toBeGreaterThan(Math.max(...oldIds));
      expect(created.venue).toEqual({ id: venue.id });
      expect(created.organizer).toEqual([{ id: organizer.id }]);
      expect(created.categories).toEqual([{ id: category.id, name: category.name }]);
      const counts = await db('terms').count({ n: '*' });
      expect(Number(counts[0]!.n)).toBe(expected.counts.terms);
    });
  });
}
