import type { ContextDeps } from '../context';
import { badCredentials } from '../lib';
import type { UserRow } from '../db';
import {
  ANONYMOUS,
  isRole,
  verifyAppPassword,
  verifyToken,
  viewerFor,
  type Viewer,
} from '../users';

/**
 * Who is calling (docs/contract.md §9): no `Authorization` header → anonymous; `Bearer <token>` or
 * `Basic base64(login:application-password)` → that user. Anything else sent — another scheme, a
 * malformed value, an unknown, wrong or revoked secret — is rejected with UNAUTHENTICATED (401),
 * never treated as anonymous.
 */
export async function authenticate(request: Request, deps: ContextDeps): Promise<Viewer> {
  const header = request.headers.get('authorization');
  if (header === null || header.trim() === '') return ANONYMOUS;
  const match = /^(\S+) +(\S+)$/.exec(header.trim());
  if (!match) throw badCredentials();
  const scheme = (match[1] as string).toLowerCase();
  const value = match[2] as string;
  const now = deps.now();
  let user: UserRow | null = null;
  if (scheme === 'bearer') user = await verifyToken(deps.db, value, now);
  else if (scheme === 'basic') {
    const pair = decodeBasic(value);
    if (pair) user = await verifyAppPassword(deps.db, pair.login, pair.password, now);
  }
  if (!user || !isRole(user.role)) throw badCredentials();
  return viewerFor({ id: Number(user.id), login: user.login, role: user.role });
}

/** `base64(login:password)` → its parts; null when it is not that. */
function decodeBasic(value: string): { login: string; password: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const text = Buffer.from(value, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 1) return null;
  return { login: text.slice(0, colon), password: text.slice(colon + 1) };
}
