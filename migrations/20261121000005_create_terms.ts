import type { Knex } from 'knex';

// Categories and tags share one id space, told apart by `taxonomy`.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('terms', (t) => {
    t.increments('id').primary();
    t.string('taxonomy', 20).notNullable();
    t.string('name', 200).notNullable();
    t.string('slug', 200).notNullable();
    t.text('description').notNullable();
    t.integer('parent_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('terms')
      .onDelete('SET NULL');
    // Published events using the term, maintained by the write transactions.
    t.integer('count').unsigned().notNullable().defaultTo(0);
    t.unique(['taxonomy', 'slug'], { indexName: 'terms_taxonomy_slug_unique' });
    t.index(['taxonomy', 'name'], 'terms_taxonomy_name_index');
    t.index(['parent_id'], 'terms_parent_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('terms');
}
