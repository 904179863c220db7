import type { PostStatus } from '../db';

/** Arguments of the `events` list: the GraphQL field's arguments, as the contract names them. */
export interface EventListArgs {
  page?: number | null;
  per_page?: number | null;
  start_date?: string | null;
  end_date?: string | null;
  starts_before?: string | null;
  starts_after?: string | null;
  ends_before?: string | null;
  ends_after?: string | null;
  strict_dates?: boolean | null;
  search?: string | null;
  categories?: string[] | null;
  tags?: string[] | null;
  venue?: number[] | null;
  organizer?: number[] | null;
  featured?: boolean | null;
  status?: PostStatus[] | null;
  geoloc?: boolean | null;
  geoloc_lat?: number | null;
  geoloc_lng?: number | null;
  geoloc_radius?: number | null;
  include?: number[] | null;
  post_parent?: number | null;
  ticketed?: boolean | null;
}
