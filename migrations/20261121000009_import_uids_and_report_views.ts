import type { Knex } from 'knex';

// Imports (npm run calendar -- import:ics / import:csv / seed:demo): the external id of each event
// an import created (an ICS UID, the global_id of a CSV row from another database), so that a
// second import of the same file updates those events instead of duplicating them. One row per
// imported event; deleting the event deletes its row.
//
// Reporting views for BI tools (README "Reporting (BI)"): events with their venue, organizers
// and categories flattened into one row, and venues, organizers and terms with event counts.
// Names are joined with "; " in link order; trashed records are left out.

const SEP = '; ';

/** `GROUP_CONCAT` differs by dialect: MySQL/MariaDB `SEPARATOR`, SQLite a second argument. */
function joined(knex: Knex, expr: string, order: string): string {
  // The client's dialect: `mysql` for both the mysql and mysql2 drivers, whatever the config names.
  return knex.client.dialect === 'mysql'
    ? `GROUP_CONCAT(${expr} ORDER BY ${order} SEPARATOR '${SEP}')`
    : `group_concat(${expr}, '${SEP}' ORDER BY ${order})`;
}

function termNames(knex: Knex, taxonomy: 'category' | 'tag'): string {
  return `(SELECT ${joined(knex, 't.name', 'et.position')}
             FROM event_terms et JOIN terms t ON t.id = et.term_id
            WHERE et.event_id = e.id AND t.taxonomy = '${taxonomy}')`;
}

/** The contract's `stateprovince`: as stored, else the state (US or no country) or province. */
const STATE_PROVINCE = (v: string) =>
  `COALESCE(NULLIF(${v}.stateprovince, ''), CASE WHEN ${v}.country IN ('', 'US', 'United States')
     THEN ${v}.state ELSE ${v}.province END)`;

const PUBLISHED_EVENTS_OF = (link: string, column: string, owner: string) =>
  `(SELECT COUNT(*) FROM ${link} l JOIN events pe ON pe.id = l.event_id
     WHERE l.${column} = ${owner}.id AND pe.status = 'publish')`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('event_import_uids', (t) => {
    t.string('uid', 255).primary();
    t.integer('event_id')
      .unsigned()
      .notNullable()
      .unique({ indexName: 'event_import_uids_event_unique' })
      .references('id')
      .inTable('events')
      .onDelete('CASCADE');
  });

  await knex.raw(`CREATE VIEW report_events AS
    SELECT e.id, e.slug, e.status, e.title, e.all_day,
           e.start_date, e.end_date, e.utc_start_date, e.utc_end_date, e.timezone,
           e.cost, e.currency_symbol, e.website, e.featured, e.sticky, e.hide_from_listings,
           e.date_utc AS published_utc, e.modified_utc, e.author_id, u.login AS author_login,
           e.parent_id, e.venue_id,
           v.title AS venue_name, v.address AS venue_address, v.city AS venue_city,
           ${STATE_PROVINCE('v')} AS venue_stateprovince, v.zip AS venue_zip,
           v.country AS venue_country, v.geo_lat AS venue_geo_lat, v.geo_lng AS venue_geo_lng,
           (SELECT ${joined(knex, 'o.title', 'eo.position')}
              FROM event_organizers eo JOIN organizers o ON o.id = eo.organizer_id
             WHERE eo.event_id = e.id) AS organizer_names,
           (SELECT COUNT(*) FROM event_organizers eo2 WHERE eo2.event_id = e.id) AS organizer_count,
           ${termNames(knex, 'category')} AS category_names,
           ${termNames(knex, 'tag')} AS tag_names
      FROM events e
      LEFT JOIN venues v ON v.id = e.venue_id
      LEFT JOIN users u ON u.id = e.author_id
     WHERE e.status <> 'trash'`);

  await knex.raw(`CREATE VIEW report_venues AS
    SELECT v.id, v.slug, v.status, v.title AS name, v.address, v.city, v.state, v.province,
           ${STATE_PROVINCE('v')} AS stateprovince, v.zip, v.country, v.phone, v.website, v.geo_lat, v.geo_lng,
           (SELECT COUNT(*) FROM events pe WHERE pe.venue_id = v.id AND pe.status = 'publish')
             AS published_events,
           v.modified_utc
      FROM venues v
     WHERE v.status <> 'trash'`);

  await knex.raw(`CREATE VIEW report_organizers AS
    SELECT o.id, o.slug, o.status, o.title AS name, o.email, o.phone, o.website,
           ${PUBLISHED_EVENTS_OF('event_organizers', 'organizer_id', 'o')} AS published_events,
           o.modified_utc
      FROM organizers o
     WHERE o.status <> 'trash'`);

  await knex.raw(`CREATE VIEW report_terms AS
    SELECT t.id, t.taxonomy, t.name, t.slug, t.description, t.parent_id,
           p.name AS parent_name, t.count AS published_events
      FROM terms t
      LEFT JOIN terms p ON p.id = t.parent_id`);
}

export async function down(knex: Knex): Promise<void> {
  for (const view of ['report_terms', 'report_organizers', 'report_venues', 'report_events']) {
    await knex.raw(`DROP VIEW IF EXISTS ${view}`);
  }
  await knex.schema.dropTable('event_import_uids');
}
