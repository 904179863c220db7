import type { AppContext } from '../context';
import { DomainError, invalid } from '../lib';
import { FEED_TOKEN_PARAM, isRole, verifyFeedToken, viewerFor } from '../users';

/**
 * Private feeds (docs/feeds.md "Private feeds"): `?feed_token=<secret>` on a feed reads it as the
 * token's user — calendar apps cannot send an `Authorization` header. A token that is malformed,
 * unknown or revoked is a 401 in the contract's JSON, never an anonymous feed; wrong guesses are
 * counted by the request's password throttle (src/http/auth-throttle.ts), 429 past its limit.
 */

/** The feed token of a request, null without one; with credentials as well, a 400. */
export function feedTokenOf(request: Request, url: URL): string | null {
  const token = url.searchParams.get(FEED_TOKEN_PARAM);
  if (token === null) return null;
  if (request.headers.get('authorization')?.trim()) {
    throw invalid(FEED_TOKEN_PARAM, 'Send a feed token or credentials, not both.');
  }
  return token;
}

function invalidFeedToken(): DomainError {
  return new DomainError(
    'UNAUTHENTICATED',
    'bad_credentials',
    'The feed token is not valid: it is unknown or has been revoked.',
  );
}

/** `ctx` (anonymous so far) made the token's user's, or a 401. */
export async function asFeedTokenUser(ctx: AppContext, token: string): Promise<AppContext> {
  const user = await verifyFeedToken(ctx.db, token, ctx.now(), (subject, given, expected) =>
    ctx.passwordGuesses.check(subject, given, expected),
  );
  if (!user || !isRole(user.role)) throw invalidFeedToken();
  ctx.viewer = viewerFor({ id: Number(user.id), login: user.login, role: user.role });
  ctx.resetLoaders();
  return ctx;
}
