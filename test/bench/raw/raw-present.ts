import type { Config } from '../../../src/config/config';
import { formatCost } from '../../../src/events/cost';
import { dateDetails, isValidZone, zoneAbbr } from '../../../src/lib/dates';
import { organizerJsonLd, stateProvinceOf, venueJsonLd } from '../../../src/events/place-json-ld';
import { globalId, publicUrl, restUrl } from '../../../src/lib/urls';
import type {
  EventRow,
  ImageRow,
  OrganizerRow,
  PostRow,
  TermRow,
  VenueRow,
} from '../../../src/db/rows';
import { eventJsonLd } from '../../../src/events/json-ld';

/**
 * The raw baseline's JSON: docs/contract.md §4–§5 written out by hand for the rows the raw SQL
 * returns, key for key as the REST adapter answers (SDL field order, the presenter's declared
 * quirks). The pure formatting helpers of src/lib are shared so the bodies are identical and the
 * baseline pays for the same cost, time-zone and JSON-LD work; what it skips is GraphQL, Knex,
 * loaders and resolvers. The benchmark dataset has no password-protected events, so list redaction
 * is not reproduced.
 */

type Json = Record<string, unknown>;

const FLAGS = ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'];
const NUMBERS = ['geo_lat', 'geo_lng', 'count', 'width', 'height'];

/** MySQL answers booleans as 0/1 and decimals as strings; SQLite booleans as 0/1. */
export function normalize<T>(raw: Record<string, unknown>): T {
  const row: Record<string, unknown> = { ...raw };
  for (const key of FLAGS) if (key in row) row[key] = row[key] === 1 || row[key] === true;
  for (const key of NUMBERS) {
    if (row[key] !== null && row[key] !== undefined) row[key] = Number(row[key]);
  }
  for (const key of ['id', 'author_id', 'venue_id', 'image_id', 'parent_id', 'link_event_id']) {
    if (row[key] !== null && row[key] !== undefined) row[key] = Number(row[key]);
  }
  return row as T;
}

function image(row: ImageRow | undefined): Json | false {
  if (!row) return false;
  const out: Json = { url: row.url, id: row.id, extension: row.extension };
  if (row.width !== null) out.width = row.width;
  if (row.height !== null) out.height = row.height;
  return out;
}

function publishing(config: Config, row: PostRow, kind: string): Json {
  return {
    id: row.id,
    author: String(row.author_id),
    status: row.status,
    date: row.date,
    date_utc: row.date_utc,
    modified: row.modified,
    modified_utc: row.modified_utc,
    url: publicUrl(config, `${kind}/${row.slug}/`),
  };
}

/** Venues and organizers drop empty values, except the four keys always present. */
function stripped(out: Json): Json {
  const kept = new Set(['show_map', 'show_map_link', 'global_id', 'global_id_lineage']);
  for (const [k, v] of Object.entries(out)) {
    if (!kept.has(k) && (v === null || v === '' || v === '0' || v === false)) delete out[k];
  }
  return out;
}

export function venue(config: Config, v: VenueRow, single: boolean, img?: ImageRow): Json {
  return stripped({
    ...publishing(config, v, 'venue'),
    venue: v.title,
    description: v.description,
    excerpt: v.excerpt,
    slug: v.slug,
    image: img ? image(img) : null,
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    state: v.state,
    zip: v.zip,
    phone: v.phone,
    website: v.website,
    stateprovince: stateProvinceOf(v),
    geo_lat: v.geo_lat,
    geo_lng: v.geo_lng,
    json_ld: single ? venueJsonLd(config, v) : null,
    show_map: v.show_map,
    show_map_link: v.show_map_link,
    global_id: globalId(config, v.id),
    global_id_lineage: [globalId(config, v.id)],
  });
}

export function organizer(config: Config, o: OrganizerRow, single: boolean, img?: ImageRow): Json {
  return stripped({
    ...publishing(config, o, 'organizer'),
    organizer: o.title,
    description: o.description,
    excerpt: o.excerpt,
    slug: o.slug,
    image: img ? image(img) : null,
    phone: o.phone,
    website: o.website,
    email: o.email,
    json_ld: single ? organizerJsonLd(config, o) : null,
    global_id: globalId(config, o.id),
    global_id_lineage: [globalId(config, o.id)],
  });
}

function term(config: Config, t: TermRow): Json {
  const collection = t.taxonomy === 'category' ? 'categories' : 'tags';
  const parent = t.taxonomy === 'category' ? (t.parent_id ?? 0) : 0;
  const urls: Json = {
    self: restUrl(config, `${collection}/${t.id}`),
    collection: restUrl(config, collection),
  };
  if (parent) urls.up = restUrl(config, `${collection}/${parent}`);
  return {
    name: t.name,
    slug: t.slug,
    term_group: 0,
    term_taxonomy_id: t.id,
    taxonomy: t.taxonomy === 'category' ? 'tribe_events_cat' : 'post_tag',
    description: t.description,
    parent,
    count: t.count,
    filter: 'raw',
    id: t.id,
    urls,
  };
}

function timezoneAbbr(row: EventRow): string {
  if (row.timezone === '') return '';
  if (!isValidZone(row.timezone)) return /^UTC[+-]/i.test(row.timezone) ? row.timezone : '';
  return zoneAbbr(row.timezone, row.utc_start_date);
}

/** What an event's JSON needs besides its row; venue and organizers already visible ones. */
export interface EventParts {
  venue: VenueRow | null;
  organizers: OrganizerRow[];
  terms: TermRow[];
  images: Map<number, ImageRow>;
}

export function event(config: Config, row: EventRow, parts: EventParts, single: boolean): Json {
  const url = publicUrl(config, `event/${row.slug}/`);
  const cost = formatCost(row, {
    symbol: config.currencySymbol,
    position: config.currencyPosition,
  });
  const img = (id: number | null) => (id === null ? undefined : parts.images.get(id));
  const out: Json = {
    id: row.id,
    global_id: globalId(config, row.id),
    global_id_lineage: [globalId(config, row.id)],
    ...publishing(config, row, 'event'),
    rest_url: restUrl(config, `events/${row.id}`),
    title: row.title,
    description: row.description,
    excerpt: row.excerpt,
    slug: row.slug,
    image: image(img(row.image_id)),
    all_day: row.all_day,
    start_date: row.start_date,
    start_date_details: dateDetails(row.start_date),
    end_date: row.end_date,
    end_date_details: dateDetails(row.end_date),
    utc_start_date: row.utc_start_date,
    utc_start_date_details: dateDetails(row.utc_start_date),
    utc_end_date: row.utc_end_date,
    utc_end_date_details: dateDetails(row.utc_end_date),
    timezone: row.timezone,
    timezone_abbr: timezoneAbbr(row),
    cost: cost.cost,
    cost_details: cost.cost_details,
    website: row.website || url,
    show_map: row.show_map,
    show_map_link: row.show_map_link,
    hide_from_listings: row.hide_from_listings,
    sticky: row.sticky,
    featured: row.featured,
    categories: parts.terms.filter((t) => t.taxonomy === 'category').map((t) => term(config, t)),
    tags: parts.terms.filter((t) => t.taxonomy === 'tag').map((t) => term(config, t)),
    venue: parts.venue ? venue(config, parts.venue, single, img(parts.venue.image_id)) : [],
    organizer: parts.organizers.map((o) => organizer(config, o, single, img(o.image_id))),
  };
  if (single && row.password === '') {
    out.json_ld = eventJsonLd(config, row, {
      venue: parts.venue,
      organizer: parts.organizers[0] ?? null,
      image: img(row.image_id) ?? null,
    });
  }
  return out;
}
