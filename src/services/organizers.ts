import type { AppContext } from '../context';
import type { Queryable } from '../repositories/queryable';
import type { PostStatus } from '../repositories/rows';

/** An organizer given inside an event write (GraphQL `EventOrganizerInput`). */
export interface EventOrganizerInput {
  id?: number | null;
  organizer?: string | null;
  description?: string | null;
  phone?: string | null;
  website?: string | null;
  email?: string | null;
  image?: string | null;
  status?: PostStatus | null;
}

/**
 * The organizer id an event write links: `{id}` must exist (else 400 `rest_invalid_param` on
 * `organizer`); other fields create one (de-duplicated) inside `q`. STUB: replaced by the
 * organizers work.
 */
export async function organizerForEvent(
  _ctx: AppContext,
  _q: Queryable,
  _input: EventOrganizerInput,
): Promise<number> {
  throw new Error('not implemented');
}
