import type { AppContext } from '../context';
import type { Queryable } from '../repositories/queryable';
import type { PostStatus } from '../repositories/rows';

/** A venue given inside an event write (GraphQL `EventVenueInput`). */
export interface EventVenueInput {
  id?: number | null;
  venue?: string | null;
  description?: string | null;
  address?: string | null;
  city?: string | null;
  country?: string | null;
  province?: string | null;
  state?: string | null;
  stateprovince?: string | null;
  zip?: string | null;
  phone?: string | null;
  website?: string | null;
  show_map?: boolean | null;
  show_map_link?: boolean | null;
  geo_lat?: number | null;
  geo_lng?: number | null;
  image?: string | null;
  status?: PostStatus | null;
}

/**
 * The venue id an event write links: `{id}` must be an existing, non-trashed venue (else 400
 * `rest_invalid_param` on `venue`); other fields create a venue (de-duplicated) inside `q`, the
 * caller's transaction. STUB: replaced by the venues work.
 */
export async function venueForEvent(
  _ctx: AppContext,
  _q: Queryable,
  _input: EventVenueInput,
): Promise<number> {
  throw new Error('not implemented');
}
