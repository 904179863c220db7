import { CAPABILITIES, type Capabilities, type Role } from './roles';

export interface ViewerUser {
  id: number;
  login: string;
  role: Role;
}

/** Who is calling. `user` is null for anonymous callers. */
export interface Viewer {
  user: ViewerUser | null;
  can: Capabilities;
}

export const ANONYMOUS: Viewer = { user: null, can: CAPABILITIES.subscriber };

export function viewerFor(user: ViewerUser): Viewer {
  return { user, can: CAPABILITIES[user.role] };
}

/** Contributors and above see non-published (non-trashed) records. */
export function seesUnpublished(viewer: Viewer): boolean {
  return viewer.can.createPosts;
}
