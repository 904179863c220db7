import type { Knex } from 'knex';

// Credentials: API tokens (Bearer) and application passwords (HTTP Basic). Only a SHA-256 of
// each random secret is stored; `revoked_at` keeps revoked rows for the record.
function credential(t: Knex.CreateTableBuilder): void {
  t.increments('id').primary();
  t.integer('user_id')
    .unsigned()
    .notNullable()
    .references('id')
    .inTable('users')
    .onDelete('CASCADE');
  t.string('name', 100).notNullable().defaultTo('');
  t.string('secret_hash', 64).notNullable();
  t.datetime('created_at').notNullable();
  t.datetime('last_used_at').nullable();
  t.datetime('revoked_at').nullable();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_tokens', (t) => {
    credential(t);
    t.index(['user_id'], 'api_tokens_user_index');
    t.index(['secret_hash'], 'api_tokens_secret_hash_index');
  });
  await knex.schema.createTable('app_passwords', (t) => {
    credential(t);
    t.index(['user_id'], 'app_passwords_user_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('app_passwords');
  await knex.schema.dropTable('api_tokens');
}
