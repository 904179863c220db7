import type { Knex } from 'knex';

// Ordered links: `position` keeps the order the client gave.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('event_terms', (t) => {
    t.integer('event_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('events')
      .onDelete('CASCADE');
    t.integer('term_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('terms')
      .onDelete('CASCADE');
    t.integer('position').notNullable();
    t.primary(['event_id', 'term_id']);
    t.index(['term_id', 'event_id'], 'event_terms_term_index');
  });
  await knex.schema.createTable('event_organizers', (t) => {
    t.integer('event_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('events')
      .onDelete('CASCADE');
    t.integer('organizer_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('organizers')
      .onDelete('CASCADE');
    t.integer('position').notNullable();
    t.primary(['event_id', 'organizer_id']);
    t.index(['organizer_id', 'event_id'], 'event_organizers_organizer_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('event_organizers');
  await knex.schema.dropTable('event_terms');
}
