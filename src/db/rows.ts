/** Row shapes as the repositories return them: booleans and numbers already normalised. */

export type PostStatus = 'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash';
/** Statuses a caller may ask for in a list (`trash` never lists). */
export const LISTABLE_STATUSES: readonly PostStatus[] = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
];

/** Columns shared by events, venues and organizers. */
export interface PostRow {
  id: number;
  status: PostStatus;
  slug: string;
  title: string;
  description: string;
  excerpt: string;
  author_id: number;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  password: string;
  image_id: number | null;
}

/** `PostRow`'s columns in table order, for reads that name their columns. */
export const POST_COLUMNS = [
  'id',
  'status',
  'slug',
  'title',
  'description',
  'excerpt',
  'author_id',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'password',
  'image_id',
] as const satisfies readonly (keyof PostRow)[];

export interface EventRow extends PostRow {
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  all_day: boolean;
  cost: string;
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  hide_from_listings: boolean;
  sticky: boolean;
  featured: boolean;
  venue_id: number | null;
  parent_id: number | null;
}

export interface VenueRow extends PostRow {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  stateprovince: string;
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizerRow extends PostRow {
  phone: string;
  website: string;
  email: string;
}

export type Taxonomy = 'category' | 'tag';

export interface TermRow {
  id: number;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  parent_id: number | null;
  count: number;
}

export interface ImageRow {
  id: number;
  url: string;
  extension: string;
  width: number | null;
  height: number | null;
}

export interface UserRow {
  id: number;
  login: string;
  display_name: string;
  email: string;
  role: string;
  created_at: string;
}

export type PostTable = 'events' | 'venues' | 'organizers';
