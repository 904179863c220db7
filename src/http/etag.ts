import { xxh64 } from '@node-rs/xxhash';

/**
 * Validators for GET responses (RFC 9110 §8.8.3, §13.1.2): an entity tag derived from the body
 * itself, so it changes exactly when the body does, on every instance behind a load balancer,
 * with no state to keep. The response cache (src/http/response-cache-plugin.ts) keeps the tag
 * with the body, so a cached answer and its 304s cost no hashing at all.
 */

const tagBytes = Buffer.alloc(8);

/**
 * A strong entity tag: the body's 64-bit xxHash (XXH64), base64url (11 characters). A fast
 * non-cryptographic fingerprint: a 220 KB list page hashes in ~15 µs where SHA-1 took ~115 µs
 * (docs/performance.md "ETags"); nothing here needs a hash an attacker cannot steer.
 */
export function etagOf(body: string | Uint8Array): string {
  tagBytes.writeBigUInt64BE(xxh64(body));
  return `"${tagBytes.toString('base64url')}"`;
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

/** A fixed file with its tag: a style sheet, GraphiQL's assets, the SDL. */
export interface FixedFile {
  body: Uint8Array;
  etag: string;
  contentType: string;
}

/**
 * The answer to GET or HEAD of a fixed file: 304 when `If-None-Match` names its tag, else 200
 * with its bytes (none for HEAD); revalidated on each use (`no-cache`).
 */
export function fixedFileResponse(
  ResponseCtor: typeof Response,
  request: Request,
  file: FixedFile,
): Response {
  const headers = {
    'Content-Type': file.contentType,
    'Cache-Control': 'no-cache',
    ETag: file.etag,
  };
  if (matchesEtag(request.headers.get('if-none-match'), file.etag)) {
    return new ResponseCtor(null, { status: 304, headers });
  }
  return new ResponseCtor(request.method === 'HEAD' ? null : new Uint8Array(file.body), {
    status: 200,
    headers: { ...headers, 'Content-Length': String(file.body.length) },
  });
}
