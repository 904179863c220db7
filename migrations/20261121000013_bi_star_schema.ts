import type { Knex } from 'knex';

// BI that opens anywhere (issue 17, docs/bi.md).
//
// 1. On SQLite, report_events (20261121000009) joined names with `group_concat(x, sep ORDER BY
//    …)`, which only SQLite 3.44+ parses: older readers (Debian 12's sqlite3 3.40, Python 3.11's
//    module) refused the whole file ("malformed database schema"). It is recreated with
//    group_concat as an ordered window function (SQLite 3.25+), same columns and values; the
//    other report views and MySQL/MariaDB's stay. Nothing here needs more than SQLite 3.31.
// 2. A star schema, as views on both databases: fact_event (every event, every status: direct
//    readers are trusted and filter themselves), dim_venue, dim_organizer, dim_term, dim_date
//    (one row per day from the earliest start to the latest end), bridge_event_term and
//    bridge_event_organizer (one row per link, events having several terms and organizers).

const SEP = '; ';

type Dialect = 'mysql' | 'sqlite';

function dialectOf(knex: Knex): Dialect {
  // `mysql` for both the mysql and mysql2 drivers.
  return knex.client.dialect === 'mysql' ? 'mysql' : 'sqlite';
}

/** How a report view joins ordered names: the 3.44-only form (down) or the portable one. */
type Joiner = (expr: string, order: string, from: string) => string;

/** SQLite 3.25+: a whole-partition ordered window, read from its first row. */
const windowJoin: Joiner = (expr, order, from) =>
  `(SELECT group_concat(${expr}, '${SEP}') OVER (ORDER BY ${order}
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) ${from} LIMIT 1)`;

/** What 20261121000009 created on SQLite (3.44+), restored by `down`. */
const orderedAggregateJoin: Joiner = (expr, order, from) =>
  `(SELECT group_concat(${expr}, '${SEP}' ORDER BY ${order}) ${from})`;

const termNames = (join: Joiner, taxonomy: 'category' | 'tag') =>
  join(
    't.name',
    'et.position',
    `FROM event_terms et JOIN terms t ON t.id = et.term_id
      WHERE et.event_id = e.id AND t.taxonomy = '${taxonomy}'`,
  );

/** The contract's `stateprovince`: as stored, else the state (US or no country) or province. */
const STATE_PROVINCE = (v: string) =>
  `COALESCE(NULLIF(${v}.stateprovince, ''), CASE WHEN ${v}.country IN ('', 'US', 'United States')
     THEN ${v}.state ELSE ${v}.province END)`;

/** report_events as 20261121000009 defines it, its names joined by `join`. */
async function createReportEvents(knex: Knex, join: Joiner): Promise<void> {
  await knex.raw(`CREATE VIEW report_events AS
    SELECT e.id, e.slug, e.status, e.title, e.all_day,
           e.start_date, e.end_date, e.utc_start_date, e.utc_end_date, e.timezone,
           e.cost, e.currency_symbol, e.website, e.featured, e.sticky, e.hide_from_listings,
           e.date_utc AS published_utc, e.modified_utc, e.author_id, u.login AS author_login,
           e.parent_id, e.venue_id,
           v.title AS venue_name, v.address AS venue_address, v.city AS venue_city,
           ${STATE_PROVINCE('v')} AS venue_stateprovince, v.zip AS venue_zip,
           v.country AS venue_country, v.geo_lat AS venue_geo_lat, v.geo_lng AS venue_geo_lng,
           ${join(
             'o.title',
             'eo.position',
             `FROM event_organizers eo JOIN organizers o ON o.id = eo.organizer_id
               WHERE eo.event_id = e.id`,
           )} AS organizer_names,
           (SELECT COUNT(*) FROM event_organizers eo2 WHERE eo2.event_id = e.id) AS organizer_count,
           ${termNames(join, 'category')} AS category_names,
           ${termNames(join, 'tag')} AS tag_names
      FROM events e
      LEFT JOIN venues v ON v.id = e.venue_id
      LEFT JOIN users u ON u.id = e.author_id
     WHERE e.status <> 'trash'`);
}

/** `YYYYMMDD` as an integer: the key fact_event and dim_date join on. */
const dateKey = (dialect: Dialect, column: string) =>
  dialect === 'mysql'
    ? `(YEAR(${column}) * 10000 + MONTH(${column}) * 100 + DAYOFMONTH(${column}))`
    : `CAST(strftime('%Y%m%d', ${column}) AS INTEGER)`;

const minutesBetween = (dialect: Dialect, from: string, to: string) =>
  dialect === 'mysql'
    ? `TIMESTAMPDIFF(MINUTE, ${from}, ${to})`
    : `CAST(ROUND((julianday(${to}) - julianday(${from})) * 1440) AS INTEGER)`;

const termCount = (taxonomy: 'category' | 'tag') =>
  `(SELECT COUNT(*) FROM event_terms et JOIN terms t ON t.id = et.term_id
     WHERE et.event_id = e.id AND t.taxonomy = '${taxonomy}')`;

function factEvent(dialect: Dialect): string {
  return `CREATE VIEW fact_event AS
    SELECT e.id AS event_id, e.status, e.slug, e.title,
           ${dateKey(dialect, 'e.start_date')} AS start_date_key,
           ${dateKey(dialect, 'e.end_date')} AS end_date_key,
           e.start_date, e.end_date, e.utc_start_date, e.utc_end_date, e.timezone, e.all_day,
           ${minutesBetween(dialect, 'e.utc_start_date', 'e.utc_end_date')} AS duration_minutes,
           e.venue_id,
           (SELECT eo.organizer_id FROM event_organizers eo WHERE eo.event_id = e.id
             ORDER BY eo.position LIMIT 1) AS organizer_id,
           (SELECT COUNT(*) FROM event_organizers eo WHERE eo.event_id = e.id) AS organizer_count,
           ${termCount('category')} AS category_count,
           ${termCount('tag')} AS tag_count,
           e.author_id, e.parent_id, e.cost, e.currency_symbol, e.currency_code,
           e.featured, e.sticky, e.hide_from_listings,
           e.date_utc AS published_utc, e.modified_utc
      FROM events e`;
}

const DIM_VENUE = `CREATE VIEW dim_venue AS
  SELECT v.id AS venue_id, v.status, v.slug, v.title AS name, v.address, v.city, v.state,
         v.province, ${STATE_PROVINCE('v')} AS stateprovince, v.zip, v.country, v.phone,
         v.website, v.geo_lat, v.geo_lng, v.modified_utc
    FROM venues v`;

const DIM_ORGANIZER = `CREATE VIEW dim_organizer AS
  SELECT o.id AS organizer_id, o.status, o.slug, o.title AS name, o.email, o.phone, o.website,
         o.modified_utc
    FROM organizers o`;

const DIM_TERM = `CREATE VIEW dim_term AS
  SELECT t.id AS term_id, t.taxonomy, t.name, t.slug, t.description, t.parent_id,
         p.name AS parent_name, t.count AS published_events
    FROM terms t
    LEFT JOIN terms p ON p.id = t.parent_id`;

const BRIDGE_EVENT_TERM = `CREATE VIEW bridge_event_term AS
  SELECT et.event_id, et.term_id, t.taxonomy, et.position
    FROM event_terms et JOIN terms t ON t.id = et.term_id`;

const BRIDGE_EVENT_ORGANIZER = `CREATE VIEW bridge_event_organizer AS
  SELECT eo.event_id, eo.organizer_id, eo.position FROM event_organizers eo`;

/** SQLite: a recursive CTE, one step per day (SQLite sets no recursion limit). */
const SQLITE_DIM_DATE = `CREATE VIEW dim_date AS
  WITH RECURSIVE span(first_day, last_day) AS (
         SELECT date(MIN(start_date)), date(MAX(end_date)) FROM events),
       days(d) AS (
         SELECT first_day FROM span WHERE first_day IS NOT NULL
         UNION ALL
         SELECT date(d, '+1 day') FROM days, span WHERE d < last_day)
  SELECT CAST(strftime('%Y%m%d', d) AS INTEGER) AS date_key, d AS date,
         CAST(strftime('%Y', d) AS INTEGER) AS year,
         (CAST(strftime('%m', d) AS INTEGER) + 2) / 3 AS quarter,
         CAST(strftime('%m', d) AS INTEGER) AS month,
         strftime('%Y-%m', d) AS month_key,
         CAST(strftime('%d', d) AS INTEGER) AS day,
         (CAST(strftime('%w', d) AS INTEGER) + 6) % 7 + 1 AS day_of_week,
         CAST(strftime('%j', d) AS INTEGER) AS day_of_year,
         CAST(strftime('%Y', date(d, '-3 days', 'weekday 4')) AS INTEGER) AS iso_year,
         (CAST(strftime('%j', date(d, '-3 days', 'weekday 4')) AS INTEGER) - 1) / 7 + 1 AS iso_week,
         CAST(strftime('%w', d) AS INTEGER) IN (0, 6) AS is_weekend
    FROM days`;

const DIGITS = `(SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3
  UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8
  UNION ALL SELECT 9)`;

/**
 * MySQL/MariaDB: day offsets from six digit tables (up to 1,000,000 days, 2,737 years), each
 * digit bounded as it joins so only the range's own days are formed. Not a recursive CTE:
 * MariaDB stops one after max_recursive_iterations (1000 by default), MySQL fails past
 * cte_max_recursion_depth (1000), both shorter than a calendar's range can be.
 */
function mysqlDimDate(): string {
  const places = [100000, 10000, 1000, 100, 10, 1];
  let offset = '';
  const joins = places.map((place, i) => {
    offset += `${i ? ' + ' : ''}${place} * d${i}.n`;
    return `JOIN ${DIGITS} d${i} ON ${offset} <= s.span`;
  });
  return `CREATE VIEW dim_date AS
    SELECT YEAR(x.d) * 10000 + MONTH(x.d) * 100 + DAYOFMONTH(x.d) AS date_key, x.d AS date,
           YEAR(x.d) AS year, QUARTER(x.d) AS quarter, MONTH(x.d) AS month,
           DATE_FORMAT(x.d, '%Y-%m') AS month_key, DAYOFMONTH(x.d) AS day,
           WEEKDAY(x.d) + 1 AS day_of_week, DAYOFYEAR(x.d) AS day_of_year,
           YEARWEEK(x.d, 3) DIV 100 AS iso_year, WEEK(x.d, 3) AS iso_week,
           WEEKDAY(x.d) >= 5 AS is_weekend
      FROM (SELECT s.first_day + INTERVAL (${offset}) DAY AS d
              FROM (SELECT DATE(MIN(start_date)) AS first_day,
                           DATEDIFF(MAX(end_date), MIN(start_date)) AS span
                      FROM events) s
              ${joins.join('\n              ')}) x`;
}

/** The star relations, as `docs/bi.md` lists them; dropped in reverse. */
const STAR_VIEWS = [
  'fact_event',
  'dim_venue',
  'dim_organizer',
  'dim_term',
  'dim_date',
  'bridge_event_term',
  'bridge_event_organizer',
];

export async function up(knex: Knex): Promise<void> {
  const dialect = dialectOf(knex);
  if (dialect === 'sqlite') {
    // The other report views join no names: they parse on old SQLite as they are.
    await knex.raw('DROP VIEW IF EXISTS report_events');
    await createReportEvents(knex, windowJoin);
  }
  await knex.raw(factEvent(dialect));
  await knex.raw(DIM_VENUE);
  await knex.raw(DIM_ORGANIZER);
  await knex.raw(DIM_TERM);
  await knex.raw(dialect === 'mysql' ? mysqlDimDate() : SQLITE_DIM_DATE);
  await knex.raw(BRIDGE_EVENT_TERM);
  await knex.raw(BRIDGE_EVENT_ORGANIZER);
}

export async function down(knex: Knex): Promise<void> {
  for (const view of [...STAR_VIEWS].reverse()) await knex.raw(`DROP VIEW IF EXISTS ${view}`);
  if (dialectOf(knex) === 'sqlite') {
    await knex.raw('DROP VIEW IF EXISTS report_events');
    await createReportEvents(knex, orderedAggregateJoin);
  }
}
