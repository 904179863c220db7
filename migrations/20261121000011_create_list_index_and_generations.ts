import type { Knex } from 'knex';

/**
 * The events list at scale (issue 6, "flat as the calendar grows").
 *
 * `events_list_index` (hide_from_listings, status, start_date, id, end_date) is both ordered like
 * the list (start, then id) and covering for its window (end_date rides along): a page's ids are
 * read index-only from the window's first row on, and the exact count of a window reads only
 * this index. It replaces `events_listing_index` (its prefix) and `events_window_index` (same
 * columns, but ordered by end_date before id, so MariaDB paged through `ref` on the first two
 * columns and skipped every past event of the status to reach the window).
 *
 * `list_generations`: a few counters that every calendar write transaction increments (one
 * shard drawn at random, so concurrent writes rarely wait on one row). Their sum changes with
 * every committed write; list totals cached by a server process stay valid while it does not
 * (src/repositories/list-counts.ts). No rows until the first write.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.index(['hide_from_listings', 'status', 'start_date', 'id', 'end_date'], 'events_list_index');
  });
  await knex.schema.alterTable('events', (t) => {
    t.dropIndex([], 'events_listing_index');
    t.dropIndex([], 'events_window_index');
  });
  await knex.schema.createTable('list_generations', (t) => {
    t.integer('shard').unsigned().primary();
    t.bigInteger('n').unsigned().notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('list_generations');
  await knex.schema.alterTable('events', (t) => {
    t.index(['hide_from_listings', 'status', 'start_date', 'id'], 'events_listing_index');
    t.index(
      ['hide_from_listings', 'status', 'start_date', 'end_date', 'id'],
      'events_window_index',
    );
  });
  await knex.schema.alterTable('events', (t) => {
    t.dropIndex([], 'events_list_index');
  });
}
