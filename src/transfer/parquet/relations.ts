/**
 * The star schema's relations (the views of migration 20261121000013, docs/bi.md) as the Parquet
 * export writes them: each column with the Parquet type it gets, and the key the export pages
 * on (unique, ascending, backed by an index of the underlying table).
 */

/**
 * `int`: INT64; `text`: UTF-8 string; `bool`: BOOLEAN; `double`: DOUBLE; `date`: DATE;
 * `local`: a wall-clock timestamp without zone (the events' local dates); `utc`: a UTC instant.
 */
export type ColumnKind = 'int' | 'text' | 'bool' | 'double' | 'date' | 'local' | 'utc';

export interface StarRelation {
  name: string;
  /** The keyset: the export reads rows after the last one's values of these, in this order. */
  key: readonly string[];
  columns: Readonly<Record<string, ColumnKind>>;
}

export const STAR_RELATIONS: readonly StarRelation[] = [
  {
    name: 'fact_event',
    key: ['event_id'],
    columns: {
      event_id: 'int',
      status: 'text',
      slug: 'text',
      title: 'text',
      start_date_key: 'int',
      end_date_key: 'int',
      start_date: 'local',
      end_date: 'local',
      utc_start_date: 'utc',
      utc_end_date: 'utc',
      timezone: 'text',
      all_day: 'bool',
      duration_minutes: 'int',
      venue_id: 'int',
      organizer_id: 'int',
      organizer_count: 'int',
      category_count: 'int',
      tag_count: 'int',
      author_id: 'int',
      parent_id: 'int',
      cost: 'text',
      currency_symbol: 'text',
      currency_code: 'text',
      featured: 'bool',
      sticky: 'bool',
      hide_from_listings: 'bool',
      published_utc: 'utc',
      modified_utc: 'utc',
    },
  },
  {
    name: 'dim_venue',
    key: ['venue_id'],
    columns: {
      venue_id: 'int',
      status: 'text',
      slug: 'text',
      name: 'text',
      address: 'text',
      city: 'text',
      state: 'text',
      province: 'text',
      stateprovince: 'text',
      zip: 'text',
      country: 'text',
      phone: 'text',
      website: 'text',
      geo_lat: 'double',
      geo_lng: 'double',
      modified_utc: 'utc',
    },
  },
  {
    name: 'dim_organizer',
    key: ['organizer_id'],
    columns: {
      organizer_id: 'int',
      status: 'text',
      slug: 'text',
      name: 'text',
      email: 'text',
      phone: 'text',
      website: 'text',
      modified_utc: 'utc',
    },
  },
  {
    name: 'dim_term',
    key: ['term_id'],
    columns: {
      term_id: 'int',
      taxonomy: 'text',
      name: 'text',
      slug: 'text',
      description: 'text',
      parent_id: 'int',
      parent_name: 'text',
      published_events: 'int',
    },
  },
  {
    name: 'dim_date',
    key: ['date_key'],
    columns: {
      date_key: 'int',
      date: 'date',
      year: 'int',
      quarter: 'int',
      month: 'int',
      month_key: 'text',
      day: 'int',
      day_of_week: 'int',
      day_of_year: 'int',
      iso_year: 'int',
      iso_week: 'int',
      is_weekend: 'bool',
    },
  },
  {
    name: 'bridge_event_term',
    key: ['event_id', 'term_id'],
    columns: { event_id: 'int', term_id: 'int', taxonomy: 'text', position: 'int' },
  },
  {
    name: 'bridge_event_organizer',
    key: ['event_id', 'organizer_id'],
    columns: { event_id: 'int', organizer_id: 'int', position: 'int' },
  },
];
