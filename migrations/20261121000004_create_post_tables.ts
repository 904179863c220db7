import type { Knex } from 'knex';

// The publishing columns every post table shares (events, venues, organizers).
function publishing(t: Knex.CreateTableBuilder): void {
  t.integer('id').unsigned().primary().references('id').inTable('post_ids');
  t.string('status', 20).notNullable();
  t.string('slug', 200).notNullable().unique();
  t.string('title', 500).notNullable();
  t.text('description', 'mediumtext').notNullable();
  t.text('excerpt').notNullable();
  t.integer('author_id').unsigned().notNullable().references('id').inTable('users');
  t.datetime('date').notNullable();
  t.datetime('date_utc').notNullable();
  t.datetime('modified').notNullable();
  t.datetime('modified_utc').notNullable();
  t.string('password', 255).notNullable().defaultTo('');
  t.integer('image_id')
    .unsigned()
    .nullable()
    .references('id')
    .inTable('images')
    .onDelete('SET NULL');
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('venues', (t) => {
    publishing(t);
    for (const c of [
      'address',
      'city',
      'country',
      'province',
      'state',
      'zip',
      'phone',
      'stateprovince',
    ]) {
      t.string(c, 255).notNullable().defaultTo('');
    }
    t.string('website', 2048).notNullable().defaultTo('');
    t.boolean('show_map').notNullable().defaultTo(true);
    t.boolean('show_map_link').notNullable().defaultTo(true);
    // Plain numbers with a bounding-box index: portable, no spatial types.
    t.decimal('geo_lat', 10, 7).nullable();
    t.decimal('geo_lng', 10, 7).nullable();
    t.index(['status', 'title'], 'venues_status_title_index');
    t.index(['geo_lat', 'geo_lng'], 'venues_geo_index');
  });

  await knex.schema.createTable('organizers', (t) => {
    publishing(t);
    t.string('phone', 255).notNullable().defaultTo('');
    t.string('website', 2048).notNullable().defaultTo('');
    t.string('email', 255).notNullable().defaultTo('');
    t.index(['status', 'title'], 'organizers_status_title_index');
  });

  await knex.schema.createTable('events', (t) => {
    publishing(t);
    t.datetime('start_date').notNullable();
    t.datetime('end_date').notNullable();
    t.datetime('utc_start_date').notNullable();
    t.datetime('utc_end_date').notNullable();
    t.string('timezone', 64).notNullable();
    t.boolean('all_day').notNullable().defaultTo(false);
    t.string('cost', 1000).notNullable().defaultTo('');
    t.string('currency_symbol', 16).notNullable().defaultTo('');
    t.string('currency_code', 3).notNullable().defaultTo('');
    t.string('currency_position', 10).notNullable().defaultTo('');
    t.string('website', 2048).notNullable().defaultTo('');
    t.boolean('show_map').notNullable().defaultTo(false);
    t.boolean('show_map_link').notNullable().defaultTo(false);
    t.boolean('hide_from_listings').notNullable().defaultTo(false);
    t.boolean('sticky').notNullable().defaultTo(false);
    t.boolean('featured').notNullable().defaultTo(false);
    t.integer('venue_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('venues')
      .onDelete('SET NULL');
    t.integer('parent_id')
      .unsigned()
      .nullable()
      .references('id')
      .inTable('events')
      .onDelete('SET NULL');
    // The default listing: visible statuses, not hidden, by local start then id.
    t.index(['hide_from_listings', 'status', 'start_date', 'id'], 'events_listing_index');
    t.index(['utc_start_date'], 'events_utc_start_index');
    t.index(['venue_id'], 'events_venue_index');
    t.index(['parent_id'], 'events_parent_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('events');
  await knex.schema.dropTable('organizers');
  await knex.schema.dropTable('venues');
}
