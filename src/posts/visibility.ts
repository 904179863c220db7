import { editScope, seesUnpublished, type EditScope } from '../users';
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

/**
 * The statuses of the records this caller sees at all: `publish`; for contributors and above
 * every status but `trash`. Nested records, list filters that name a record and the events a
 * venue's coordinates select go by it.
 */
export function visibleStatuses(ctx: AppContext): readonly PostStatus[] {
  return seesUnpublished(ctx.viewer) ? LISTABLE_STATUSES : ['publish'];
}

/** May this caller see this record at all (nested data, lists)? */
export function canSee(ctx: AppContext, row: Pick<PostRow, 'status'>): boolean {
  return visibleStatuses(ctx).includes(row.status);
}

/**
 * May this caller name this record in a list filter (`?event=`, `?venue=`, `?organizer=`,
 * `post_parent`)? Callers who see only published records may name only those: any other
 * answers exactly as an id that does not exist, so a filter confirms nothing hidden. Callers who
 * see unpublished records may name any existing one, trashed included.
 */
export function canReference(ctx: AppContext, row: Pick<PostRow, 'status'> | undefined): boolean {
  return row !== undefined && (seesUnpublished(ctx.viewer) || canSee(ctx, row));
}

/**
 * Whose password-protected text (an event's description and excerpt) this caller may read: the
 * records they may edit, as for redaction (`isRedacted`). A search looks into that text only
 * for these records; elsewhere it matches the title alone, which every list shows anyway.
 */
export function protectedTextReaders(ctx: AppContext): EditScope {
  return editScope(ctx.viewer);
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
