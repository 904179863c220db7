import { seesUnpublished } from '../users';
import type { AppContext } from '../context';
import { invalid, noLongerAvailable, notAccessible, type ResourceName } from '../lib';
import { LISTABLE_STATUSES, type PostRow, type PostStatus } from '../db';

/** Who sees which records (docs/contract.md §6 `status`, §9). */

/**
 * The statuses a list returns. Anonymous callers: only `publish` (asking for more → 400).
 * Contributors and above: what they ask for, by default every status but `trash`.
 */
export function listStatuses(
  ctx: AppContext,
  requested: readonly string[] | null | undefined,
): PostStatus[] {
  const privileged = seesUnpublished(ctx.viewer);
  if (!requested || requested.length === 0)
    return privileged ? [...LISTABLE_STATUSES] : ['publish'];
  const unknown = requested.filter((s) => !(LISTABLE_STATUSES as readonly string[]).includes(s));
  if (unknown.length) throw invalid('status', `unknown status: ${unknown.join(', ')}`);
  if (!privileged && requested.some((s) => s !== 'publish')) {
    throw invalid('status', 'anonymous callers may only list published records');
  }
  return [...new Set(requested)] as PostStatus[];
}

/** May this caller see this record at all (nested data, lists)? */
export function canSee(ctx: AppContext, row: Pick<PostRow, 'status'>): boolean {
  if (row.status === 'publish') return true;
  return row.status !== 'trash' && seesUnpublished(ctx.viewer);
}

/**
 * Single reads: a trashed event is no longer available to anyone; other non-published records
 * need a caller who sees unpublished ones.
 */
export function assertReadable(
  ctx: AppContext,
  resource: ResourceName,
  row: Pick<PostRow, 'status'>,
): void {
  if (row.status === 'trash' && resource === 'event') throw noLongerAvailable(resource);
  if (!canSee(ctx, row)) throw notAccessible(resource);
}
