import { createHash } from 'node:crypto';

/**
 * Validators for GET responses (RFC 9110 §8.8.3, §13.1.2): an entity tag derived from the body
 * itself, so it changes exactly when the body does, on every instance behind a load balancer,
 * with no state to keep.
 */

/** A strong entity tag: the body's SHA-1, base64url (27 characters). */
export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether `If-None-Match` names `etag` (or is `*`). The comparison is weak, as the RFC asks
 * for this header: `W/"x"` matches `"x"`.
 */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
