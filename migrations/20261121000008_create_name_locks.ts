import type { Knex } from 'knex';

// One row per name that writes de-duplicate on (venue and organizer names, term names): a write
// locks its names' rows (insert-or-update, a row lock held to COMMIT) before reading, so two
// requests creating the same name run one after the other. Holds hashes only, no data.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('name_locks', (t) => {
    t.string('lock_key', 64).primary();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('name_locks');
}
