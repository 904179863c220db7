import { NAMESPACE } from '../../src/lib/urls';
import type { DatasetInfo } from './dataset';
import type { ScenarioId } from './options';

/**
 * The read scenarios of issue 6, W1 (REST writes) and G1 (the GraphQL twin of S2). `rawPath` is
 * the raw baseline's URL for the same data, when it has one.
 */

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** Body of the n-th request (writes vary it so every event is new). */
  body?: (n: number) => string;
}

export interface Scenario {
  id: ScenarioId;
  title: string;
  request: Request;
  rawPath: string | null;
  /** Whether the scenario writes (runs last, its rows are removed afterwards). */
  writes: boolean;
}

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

export function scenarios(
  apiRoot: string,
  info: DatasetInfo,
  token: string | null,
): Record<ScenarioId, Scenario> {
  const ns = `${apiRoot}/${NAMESPACE}`;
  const events = `${ns}/events`;
  const get = (path: string): Request => ({ method: 'GET', path });
  const read = (id: ScenarioId, title: string, path: string, raw = true): Scenario => ({
    id,
    title,
    request: get(path),
    rawPath: raw ? path : null,
    writes: false,
  });
  const s = info.sample;
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return {
    S1: read('S1', 'GET /events (default window, per_page 10)', events),
    S2: read('S2', 'GET /events?per_page=50', `${events}?per_page=50`),
    S3: read('S3', 'GET /events?categories=<id>', `${events}?categories=${s.categoryId}`),
    S4: read('S4', 'GET /events/<id>', `${events}/${s.eventId}`),
    S5: read('S5', 'GET /events/by-slug/<slug>', `${events}/by-slug/${s.eventSlug}`),
    S6: read('S6', 'GET /venues', `${ns}/venues`, false),
    S7: read('S7', `GET /events?search=${s.searchWord}`, `${events}?search=${s.searchWord}`),
    G1: {
      id: 'G1',
      title: 'POST /graphql events(per_page: 50) nested',
      request: {
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json' },
        body: () => JSON.stringify({ query: G1_QUERY }),
      },
      rawPath: `${events}?per_page=50`,
      writes: false,
    },
    W1: {
      id: 'W1',
      title: 'POST /events (create)',
      request: {
        method: 'POST',
        path: events,
        headers: { 'content-type': 'application/json', ...auth },
        body: (n) =>
          JSON.stringify({
            title: `Bench write ${n} ${process.pid}`,
            description: '<p>Written by the benchmark.</p>',
            start_date: '2027-06-01 19:00:00',
            end_date: '2027-06-01 22:00:00',
            timezone: 'Europe/Paris',
            cost: '$12',
            venue: s.venueId,
            organizer: s.organizerIds,
            categories: [String(s.categoryId)],
          }),
      },
      rawPath: null,
      writes: true,
    },
  };
}
