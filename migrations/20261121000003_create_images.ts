import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('images', (t) => {
    t.integer('id').unsigned().primary().references('id').inTable('post_ids');
    t.string('url', 2048).notNullable();
    // URLs are too long for a unique index in MySQL; the SHA-256 of the URL is not.
    t.string('url_hash', 64).notNullable().unique();
    t.string('extension', 16).notNullable().defaultTo('');
    t.integer('width').nullable();
    t.integer('height').nullable();
    t.datetime('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('images');
}
