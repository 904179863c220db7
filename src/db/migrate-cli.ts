import { parseArgs } from 'node:util';
import { ConfigError, resolveConfig } from '../config';
import { createDb } from './knex';
import { migrateLatest, migrateRollback } from './migrate';

/**
 * `npm run migrate [-- --database-url URL]` / `npm run migrate:rollback`: on the database of the
 * same configuration as the server (environment, `.env`, defaults); `--database-url` wins.
 */

function parse(): { command: string; databaseUrl?: string } | string {
  try {
    const { positionals, values } = parseArgs({
      args: process.argv.slice(2),
      options: { 'database-url': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 1) return `Unexpected argument "${positionals[1]}".`;
    return { command: positionals[0] ?? 'latest', databaseUrl: values['database-url'] };
  } catch (error) {
    return (error as Error).message;
  }
}

async function run(): Promise<void> {
  const args = parse();
  if (typeof args === 'string') {
    console.error(args);
    process.exitCode = 2;
    return;
  }
  const { command, databaseUrl } = args;
  if (command !== 'latest' && command !== 'rollback') {
    console.error(`Unknown migrate command "${command}": use "latest" or "rollback".`);
    process.exitCode = 2;
    return;
  }
  const config = resolveConfig({ overrides: { DATABASE_URL: databaseUrl } });
  const db = createDb({ databaseUrl: config.databaseUrl, poolMax: 1 });
  try {
    const names = command === 'latest' ? await migrateLatest(db) : await migrateRollback(db);
    const verb = command === 'latest' ? 'Applied' : 'Rolled back';
    console.log(names.length ? `${verb}: ${names.join(', ')}` : 'Nothing to do.');
  } finally {
    await db.destroy();
  }
}

run().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(err instanceof ConfigError ? `Configuration error: ${message}` : message);
  process.exitCode = 1;
});
