import type { Knex } from 'knex';

/**
 * Image URLs are fetched on write (issue 18): the MIME type read from the image's bytes is
 * stored beside its width, height and extension, as WordPress's media library keeps an
 * attachment's `post_mime_type`. Images stored before were never fetched: their type is "".
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('images', (t) => {
    t.string('mime_type', 100).notNullable().defaultTo('');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('images', (t) => {
    t.dropColumn('mime_type');
  });
}
