import type { AppContext } from '../context';
import { forbidden, unauthenticated } from '../lib';
import type { PostRow } from '../db';
import type { Viewer, ViewerUser } from './viewer';

/**
 * Who may write what (docs/contract.md §9), in one place. Services validate the input
 * first (bad input is a 400 even for anonymous callers), then call the `assert…` helpers: no
 * user → 401 UNAUTHENTICATED, a user without the right → 403 FORBIDDEN.
 */

type Owned = Pick<PostRow, 'author_id' | 'status'>;

/** Statuses in which a contributor still owns the editing of a record (not yet published). */
const UNPUBLISHED = new Set(['draft', 'pending', 'trash']);

/** The user a write runs as; anonymous callers get 401. */
function mustWrite(ctx: AppContext): ViewerUser {
  if (!ctx.viewer.user) throw unauthenticated();
  return ctx.viewer.user;
}

/** Create events, venues and organizers: contributors and above. */
function canCreate(viewer: Viewer): boolean {
  return viewer.user !== null && viewer.can.createPosts;
}

/** Publishers keep `publish`/`future`; the others are scaled back to `pending`. */
export function canPublish(viewer: Viewer): boolean {
  return viewer.user !== null && viewer.can.publish;
}

/**
 * Edit a record: editors and administrators any; authors their own, published or not;
 * contributors their own while it is unpublished (draft, pending, trashed); subscribers none.
 */
export function canEditRecord(viewer: Viewer, row: Owned): boolean {
  const user = viewer.user;
  if (!user) return false;
  if (viewer.can.editOthers) return true;
  if (!viewer.can.createPosts || row.author_id !== user.id) return false;
  return UNPUBLISHED.has(row.status) || viewer.can.editOwnPublished;
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
