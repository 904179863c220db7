import type { AppContext } from '../context';
import type { EventRow, PostStatus } from '../repositories/rows';
import type { Envelope } from './list';

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

export interface EventList extends Envelope {
  events: EventRow[];
}

/** One page of events (STUB: replaced by the events-read work). */
export async function listEvents(_ctx: AppContext, _args: EventListArgs): Promise<EventList> {
  throw new Error('not implemented');
}
