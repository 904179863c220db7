import type { Collection } from '../export-source';
import type { ExportEvent, ExportOrganizer, ExportTerm, ExportVenue } from '../export-rows';
import { escapeFormula } from './formula';

/**
 * The CSV columns of each collection (docs/import-export.md "CSV columns"), in order. Events are
 * flattened: the venue's fields as `venue_*` columns, organizers, categories and tags as names
 * joined with `; `. `export:csv` and `?format=csv` write the same columns, and `import:csv` reads
 * the event ones.
 */

export type Cell = string | number | boolean | null;

export interface Column<T> {
  name: string;
  value: (row: T) => Cell;
}

/**
 * How lists of names are joined in one cell (and split again by the importer, `splitList`): with
 * `; `, a `;` or `\` inside a name escaped by a `\` (`Rock\; Roll`), as iCalendar does.
 */
const LIST_SEPARATOR = '; ';

function names<T>(items: readonly T[], pick: (item: T) => string): string {
  return items.map((item) => pick(item).replace(/[\\;]/g, '\\$&')).join(LIST_SEPARATOR);
}

/** The names of a list cell: split at each `;` without a `\` before it, escapes undone. */
export function splitList(cell: string): string[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < cell.length; i++) {
    const ch = cell[i]!;
    const next = cell[i + 1];
    if (ch === '\\' && (next === ';' || next === '\\')) {
      current += next;
      i += 1;
    } else if (ch === ';') {
      items.push(current);
      current = '';
    } else current += ch;
  }
  items.push(current);
  return items;
}

/** The event's own website: the contract falls back to the event page, which is not one. */
export function storedWebsite(e: Pick<ExportEvent, 'website' | 'url'>): string {
  return e.website === e.url ? '' : e.website;
}

/**
 * The cost as text an import reads back to the same `cost` and `cost_details`: each value with
 * the currency symbol where it goes (`$10, $20, $30`); labels (`Free`, `Donation`) as shown.
 * The formatted `cost` alone (`$10 – $30`) would lose the values in between.
 */
export function costText(e: Pick<ExportEvent, 'cost' | 'cost_details'>): string {
  const { values, currency_symbol: symbol, currency_position: position } = e.cost_details;
  if (values.length === 0 || !values.every((v) => /^\d+(\.\d+)?$/.test(v))) return e.cost;
  return values.map((v) => (position === 'postfix' ? `${v}${symbol}` : `${symbol}${v}`)).join(', ');
}

function venueOf<K extends keyof ExportVenue>(key: K) {
  return (e: ExportEvent): Cell => (e.venue ? e.venue[key] : '');
}

export const EVENT_COLUMNS: Column<ExportEvent>[] = [
  { name: 'id', value: (e) => e.id },
  { name: 'global_id', value: (e) => e.global_id },
  { name: 'title', value: (e) => e.title },
  { name: 'slug', value: (e) => e.slug },
  { name: 'status', value: (e) => e.status },
  { name: 'start_date', value: (e) => e.start_date },
  { name: 'end_date', value: (e) => e.end_date },
  { name: 'timezone', value: (e) => e.timezone },
  { name: 'all_day', value: (e) => e.all_day },
  { name: 'utc_start_date', value: (e) => e.utc_start_date },
  { name: 'utc_end_date', value: (e) => e.utc_end_date },
  { name: 'cost', value: costText },
  { name: 'currency_symbol', value: (e) => e.cost_details.currency_symbol },
  { name: 'website', value: storedWebsite },
  { name: 'url', value: (e) => e.url },
  { name: 'featured', value: (e) => e.featured },
  { name: 'sticky', value: (e) => e.sticky },
  { name: 'hide_from_listings', value: (e) => e.hide_from_listings },
  { name: 'show_map', value: (e) => e.show_map },
  { name: 'show_map_link', value: (e) => e.show_map_link },
  { name: 'venue', value: venueOf('venue') },
  { name: 'venue_address', value: venueOf('address') },
  { name: 'venue_city', value: venueOf('city') },
  { name: 'venue_state', value: venueOf('state') },
  { name: 'venue_province', value: venueOf('province') },
  { name: 'venue_zip', value: venueOf('zip') },
  { name: 'venue_country', value: venueOf('country') },
  { name: 'venue_phone', value: venueOf('phone') },
  { name: 'venue_website', value: venueOf('website') },
  { name: 'venue_lat', value: venueOf('geo_lat') },
  { name: 'venue_lng', value: venueOf('geo_lng') },
  { name: 'organizers', value: (e) => names(e.organizer, (o) => o.organizer) },
  { name: 'organizer_emails', value: (e) => names(e.organizer, (o) => o.email) },
  { name: 'categories', value: (e) => names(e.categories, (t) => t.name) },
  { name: 'tags', value: (e) => names(e.tags, (t) => t.name) },
  { name: 'description', value: (e) => e.description },
  { name: 'excerpt', value: (e) => e.excerpt },
  { name: 'published_utc', value: (e) => e.date_utc },
  { name: 'modified_utc', value: (e) => e.modified_utc },
];

export const VENUE_COLUMNS: Column<ExportVenue>[] = [
  { name: 'id', value: (v) => v.id },
  { name: 'global_id', value: (v) => v.global_id },
  { name: 'venue', value: (v) => v.venue },
  { name: 'slug', value: (v) => v.slug },
  { name: 'status', value: (v) => v.status },
  { name: 'address', value: (v) => v.address },
  { name: 'city', value: (v) => v.city },
  { name: 'state', value: (v) => v.state },
  { name: 'province', value: (v) => v.province },
  { name: 'stateprovince', value: (v) => v.stateprovince },
  { name: 'zip', value: (v) => v.zip },
  { name: 'country', value: (v) => v.country },
  { name: 'phone', value: (v) => v.phone },
  { name: 'website', value: (v) => v.website },
  { name: 'geo_lat', value: (v) => v.geo_lat },
  { name: 'geo_lng', value: (v) => v.geo_lng },
  { name: 'show_map', value: (v) => v.show_map },
  { name: 'show_map_link', value: (v) => v.show_map_link },
  { name: 'url', value: (v) => v.url },
  { name: 'description', value: (v) => v.description },
  { name: 'published_utc', value: (v) => v.date_utc },
  { name: 'modified_utc', value: (v) => v.modified_utc },
];

export const ORGANIZER_COLUMNS: Column<ExportOrganizer>[] = [
  { name: 'id', value: (o) => o.id },
  { name: 'global_id', value: (o) => o.global_id },
  { name: 'organizer', value: (o) => o.organizer },
  { name: 'slug', value: (o) => o.slug },
  { name: 'status', value: (o) => o.status },
  { name: 'email', value: (o) => o.email },
  { name: 'phone', value: (o) => o.phone },
  { name: 'website', value: (o) => o.website },
  { name: 'url', value: (o) => o.url },
  { name: 'description', value: (o) => o.description },
  { name: 'published_utc', value: (o) => o.date_utc },
  { name: 'modified_utc', value: (o) => o.modified_utc },
];

const TERM_COLUMNS: Column<ExportTerm>[] = [
  { name: 'id', value: (t) => t.id },
  { name: 'name', value: (t) => t.name },
  { name: 'slug', value: (t) => t.slug },
  { name: 'description', value: (t) => t.description },
  { name: 'count', value: (t) => t.count },
  { name: 'url', value: (t) => t.url },
];

export const CATEGORY_COLUMNS: Column<ExportTerm>[] = [
  ...TERM_COLUMNS.slice(0, 4),
  { name: 'parent', value: (t) => t.parent ?? 0 },
  ...TERM_COLUMNS.slice(4),
];

export const COLUMNS: Record<Collection, Column<never>[]> = {
  events: EVENT_COLUMNS,
  venues: VENUE_COLUMNS,
  organizers: ORGANIZER_COLUMNS,
  categories: CATEGORY_COLUMNS,
  tags: TERM_COLUMNS,
};

/**
 * One record as the cells of `columns`: booleans `true`/`false`, null and absent empty, text
 * that a spreadsheet would run as a formula quoted (`formula.ts`).
 */
export function cells<T>(columns: readonly Column<T>[], row: T): string[] {
  return columns.map((c) => {
    const value = c.value(row);
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return escapeFormula(value);
    return typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
  });
}
