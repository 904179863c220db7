import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Db } from './knex';

// Works from src/db (tests, tsx) and dist/src/db (compiled): both sit two levels below.
const migrationsDir = path.join(__dirname, '..', '..', 'migrations');
const migrationFile = /^(\d{14}_[a-z0-9_]+)\.(ts|js)$/;

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Lists `migrations/*.{ts,js}` by name (without extension, so .ts and compiled .js agree). */
class DirectoryMigrationSource implements Knex.MigrationSource<string> {
  async getMigrations(): Promise<string[]> {
    return fs
      .readdirSync(migrationsDir)
      .filter((f) => migrationFile.test(f) && !f.endsWith('.d.ts'))
      .map((f) => f.replace(/\.(ts|js)$/, ''))
      .sort();
  }
  getMigrationName(name: string): string {
    return name;
  }
  async getMigration(name: string): Promise<MigrationModule> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path.join(migrationsDir, name)) as MigrationModule;
  }
}

const config: Knex.MigratorConfig = {
  migrationSource: new DirectoryMigrationSource(),
  tableName: 'knex_migrations',
};

/** Applies every pending migration; returns the names applied. */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(config)) as [number, string[]];
  return applied;
}

export async function migrateRollback(db: Db): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback(config)) as [number, string[]];
  return reverted;
}

/** Names of migrations present on disk but not yet applied. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  // With a custom migration source, Knex lists pending migrations as the source's own values:
  // here, the names.
  const [, pending] = (await db.migrate.list(config)) as [unknown[], (string | { file: string })[]];
  return pending.map((p) => (typeof p === 'string' ? p : p.file));
}
