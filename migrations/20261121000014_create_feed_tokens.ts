import type { Knex } from 'knex';

// Private feed tokens: a secret in a feed's URL that reads the calendar as its user
// (docs/feeds.md "Private feeds"). Stored like API tokens: a SHA-256 of the random secret only;
// `revoked_at` keeps revoked rows for the record; deleting the user deletes its tokens.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('feed_tokens', (t) => {
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
    t.index(['user_id'], 'feed_tokens_user_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('feed_tokens');
}
