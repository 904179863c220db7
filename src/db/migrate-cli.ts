import { loadConfig } from '../config';
import { createDb } from './knex';
import { migrateLatest, migrateRollback } from './migrate';

async function run(): Promise<void> {
  const command = process.argv[2] ?? 'latest';
  if (command !== 'latest' && command !== 'rollback') {
    console.error(`Unknown migrate command "${command}": use "latest" or "rollback".`);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
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
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
