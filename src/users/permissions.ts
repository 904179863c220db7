import type { AppContext } from '../context';
import { forbidden, unauthenticated } from '../lib';
import type { PostRow, PostStatus } from '../db';
import type { Viewer, ViewerUser } from './viewer';

/**
 * Who may write what (docs/contract.md §9), in one place. Services validate the input
 * first (bad input is a 400 even for anonymous callers), then call the `assert…` helpers: no
 * user → 401 UNAUTHENTICATED, a user without the right → 403 FORBIDDEN.
 */

type Owned = Pick<PostRow, 'author_id' | 'status'>;

/** Statuses in which a contributor still owns the editing of a record (not yet published). */
const UNPUBLISHED: readonly PostStatus[] = ['draft', 'pending', 'trash'];

/**
 * The records a caller may edit, as data: `canEditRecord` tests a row against it and the posts
 * store turns it into SQL (searches, de-duplication), so both answer alike. `own`: the caller's
 * records in these statuses (null: any status).
 */
export type EditScope =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'own'; authorId: number; statuses: readonly PostStatus[] | null };

/** The user a write runs as; anonymous callers get 401. */
function mustWrite(ctx: AppContext): ViewerUser {
  if (!ctx.viewer.user) throw unauthenticated();
  return ctx.viewer.user;
}

/** Create events, venues and organizers: contributors and above. */
function canCreate(viewer: Viewer): boolean {
  return viewer.user !== null && viewer.can.createPosts;
}

/** Publishers keep `publish`/`future`/`private`; the others are scaled back (`effectiveStatus`). */
export function canPublish(viewer: Viewer): boolean {
  return viewer.user !== null && viewer.can.publish;
}

/**
 * Edit a record: editors and administrators any; authors their own, published or not;
 * contributors their own while it is unpublished (draft, pending, trashed); subscribers none.
 */
export function editScope(viewer: Viewer): EditScope {
  const user = viewer.user;
  if (!user) return { kind: 'none' };
  if (viewer.can.editOthers) return { kind: 'all' };
  if (!viewer.can.createPosts) return { kind: 'none' };
  return {
    kind: 'own',
    authorId: user.id,
    statuses: viewer.can.editOwnPublished ? null : UNPUBLISHED,
  };
}

/** May this caller edit `row` (the same rule as `editScope`, for one row)? */
export function canEditRecord(viewer: Viewer, row: Owned): boolean {
  const scope = editScope(viewer);
  if (scope.kind !== 'own') return scope.kind === 'all';
  return (
    row.author_id === scope.authorId && (!scope.statuses || scope.statuses.includes(row.status))
  );
}

/** Delete (trash or force-delete) follows the edit rule. */
const canDeleteRecord = canEditRecord;

/** Create, update and delete categories and tags: editors and administrators. */
export function canManageTerms(viewer: Viewer): boolean {
  return viewer.user !== null && viewer.can.manageTerms;
}

/** Naming someone else as a record's `author` takes the right to edit others' records. */
function canAttributeTo(viewer: Viewer, authorId: number): boolean {
  return viewer.user !== null && (viewer.user.id === authorId || viewer.can.editOthers);
}

export function assertCanCreate(ctx: AppContext): ViewerUser {
  const user = mustWrite(ctx);
  if (!canCreate(ctx.viewer)) throw forbidden();
  return user;
}

export function assertCanEdit(ctx: AppContext, row: Owned): ViewerUser {
  const user = mustWrite(ctx);
  if (!canEditRecord(ctx.viewer, row)) throw forbidden();
  return user;
}

export function assertCanDelete(ctx: AppContext, row: Owned): ViewerUser {
  const user = mustWrite(ctx);
  if (!canDeleteRecord(ctx.viewer, row)) throw forbidden();
  return user;
}

/**
 * A venue or organizer that an event of another author links is no longer its author's alone:
 * a caller who may not edit others' records may not change it. The user whose authorship those
 * links must match, or null when they do not matter (editors, anonymous callers).
 */
export function linkedRecordAuthor(viewer: Viewer): number | null {
  return viewer.user && !viewer.can.editOthers ? viewer.user.id : null;
}

/**
 * Edit or delete a venue or organizer: the record rule, then `linkedByOthers` (an event of
 * another author than `linkedRecordAuthor` links it) refuses it too.
 */
export function assertCanChangeLinked(
  ctx: AppContext,
  row: Owned,
  linkedByOthers: boolean,
): ViewerUser {
  const user = assertCanEdit(ctx, row);
  if (linkedByOthers) throw forbidden();
  return user;
}

export function assertCanManageTerms(ctx: AppContext): ViewerUser {
  const user = mustWrite(ctx);
  if (!canManageTerms(ctx.viewer)) throw forbidden();
  return user;
}

/** `author` in a write (undefined when absent) must be the writer unless they edit others'. */
export function assertCanAttribute(ctx: AppContext, authorId: number | null | undefined): void {
  if (authorId === undefined || authorId === null) return;
  if (!canAttributeTo(ctx.viewer, authorId)) throw forbidden();
}
