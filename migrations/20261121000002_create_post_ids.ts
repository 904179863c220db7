import type { Knex } from 'knex';

// One id space for events, venues, organizers and images, so `global_id` is unique.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('post_ids', (t) => {
    t.increments('id').primary();
    t.string('type', 20).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('post_ids');
}
