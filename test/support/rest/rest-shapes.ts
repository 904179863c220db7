/** The contract's key orders (docs/contract.md §4), as REST tests assert them. */

export const EVENT_KEYS = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
];

/** Every key a venue may carry, in order; empty ones are left out. */
export const VENUE_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'venue',
  'description',
  'excerpt',
  'slug',
  'image',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'geo_lat',
  'geo_lng',
  'json_ld',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
];

export const ORGANIZER_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'organizer',
  'description',
  'excerpt',
  'slug',
  'image',
  'phone',
  'website',
  'email',
  'json_ld',
  'global_id',
  'global_id_lineage',
];

export const NESTED_TERM_KEYS = [
  'name',
  'slug',
  'term_group',
  'term_taxonomy_id',
  'taxonomy',
  'description',
  'parent',
  'count',
  'filter',
  'id',
  'urls',
];

export const CATEGORY_KEYS = [
  'id',
  'count',
  'description',
  'name',
  'slug',
  'taxonomy',
  'parent',
  'meta',
  'url',
  'urls',
];

export const TAG_KEYS = CATEGORY_KEYS.filter((k) => k !== 'parent');

/** `keys` in the order of `order`, i.e. the object's keys are an ordered subset of it. */
export function expectOrderedSubset(object: Record<string, unknown>, order: string[]): void {
  const keys = Object.keys(object);
  expect(keys).toEqual(order.filter((k) => keys.includes(k)));
}

/** The path below the namespace of an absolute REST address (to follow links). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname.replace(/^.*?\/calendar\/events\/v1/, '')}${parsed.search}`;
}
