import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('login', 60).notNullable().unique();
    t.string('display_name', 250).notNullable().defaultTo('');
    t.string('email', 254).notNullable().defaultTo('');
    t.string('role', 20).notNullable();
    t.datetime('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
