/**
 * The GraphQL twin of the benchmark's S2 (`GET /events?per_page=50`): the same data, nested
 * venue, organizers and terms included. test/graphql/query-budget.test.ts pins its statements.
 */

const NESTED_TERM =
  'id name slug term_group term_taxonomy_id taxonomy description count filter urls { self collection up }';
const VENUE =
  'id author status date date_utc modified modified_utc url venue description excerpt slug image { url id extension width height } address city country province state zip phone website stateprovince geo_lat geo_lng show_map show_map_link global_id global_id_lineage';
const ORGANIZER =
  'id author status date date_utc modified modified_utc url organizer description excerpt slug image { url id extension width height } phone website email global_id global_id_lineage';
const DETAILS = '{ year month day hour minutes seconds }';

/** The same data as S2 (`per_page=50`), nested venue, organizers and terms included. */
export const G1_QUERY = `{ events(per_page: 50) { total total_pages rest_url next_rest_url previous_rest_url
  events { id global_id global_id_lineage author status date date_utc modified modified_utc url
    rest_url title description excerpt slug image { url id extension width height } all_day
    start_date start_date_details ${DETAILS} end_date end_date_details ${DETAILS}
    utc_start_date utc_start_date_details ${DETAILS} utc_end_date utc_end_date_details ${DETAILS}
    timezone timezone_abbr cost cost_details { currency_symbol currency_code currency_position values }
    website show_map show_map_link hide_from_listings sticky featured
    categories { ${NESTED_TERM} } tags { ${NESTED_TERM} } venue { ${VENUE} } organizer { ${ORGANIZER} } } } }`;
