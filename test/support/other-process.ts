import type { Knex } from 'knex';
import { createDb } from '../../src/db/knex';
import { bumpListGeneration } from '../../src/db/list-counts';
import type { TestEnv } from './harness';

/**
 * Runs `write` as another server or the CLI would: on a pool of its own, in one transaction that
 * moves the write generation, as every calendar write transaction does. This process learns of
 * it only through the database.
 */
export async function writeFromAnotherProcess(
  env: TestEnv,
  write: (trx: Knex.Transaction) => Promise<unknown>,
): Promise<void> {
  const other = createDb({ databaseUrl: env.config.databaseUrl, poolMax: 1 });
  try {
    await other.transaction(async (trx) => {
      await write(trx);
      await bumpListGeneration(trx);
    });
  } finally {
    await other.destroy();
  }
}
