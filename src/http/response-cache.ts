import { LRUCache } from 'lru-cache';

/**
 * The response cache's store (docs/performance.md "Response cache"): rendered 200 answers to
 * anonymous REST reads, kept in memory up to a number of bytes, least recently used dropped
 * first. Each entry remembers the data generation it was rendered at (read before its data, see
 * response-cache-generation.ts) and is served only while the generation is still that one, so
 * a committed write makes every entry a miss at once.
 */

/** What the REST adapter rendered for a 200 to GET or HEAD (src/rest/respond.ts). */
export interface Rendered {
  /** The body, encoded once. */
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  /** The adapter's headers (content type, ETag, list totals, Link, Allow). */
  headers: Record<string, string>;
}

export interface CachedResponse extends Rendered {
  generation: string;
  /** The route label of the request (metrics), restored on a hit. */
  route: string | undefined;
}

const rendered = new WeakMap<Response, Rendered>();

/** Remembers what `response` was rendered from, for the cache to keep. */
export function noteRendered(response: Response, what: Rendered): void {
  rendered.set(response, what);
}

export function renderedOf(response: Response): Rendered | undefined {
  return rendered.get(response);
}

/** Bytes an entry holds beyond its body (headers, key, bookkeeping), estimated. */
const ENTRY_OVERHEAD = 512;

export class ResponseStore {
  private readonly entries: LRUCache<string, CachedResponse>;

  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, CachedResponse>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => entry.body.byteLength + key.length + ENTRY_OVERHEAD,
    });
  }

  /** The entry of `key` if it was rendered at `generation`. */
  get(key: string, generation: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    return entry?.generation === generation ? entry : undefined;
  }

  set(key: string, entry: CachedResponse): void {
    // Bodies larger than the whole store are not kept (lru-cache refuses them anyway).
    this.entries.set(key, entry);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Date parameters whose value may be relative to now (`now`, `+1 week`, `tomorrow`…). */
const DATE_PARAMS = new Set([
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
]);
const LITERAL_DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;
/** Headers that change a body: its links (host, proxies) and its format (Accept). */
const KEY_HEADERS = ['host', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded', 'accept'];
/** Windows of "now" a key belongs to: every time zone's midnight falls on a quarter hour. */
const NOW_BUCKET_MS = 15 * 60 * 1000;

/**
 * The cache key of a request, or null when its answer must not be cached: not an anonymous
 * GET or HEAD, a password (wrong guesses are throttled per request), or a date relative to now.
 * The key holds the path, the query with its parameters in a stable order (values of one name
 * keep their order), the headers that change a body, and the quarter hour of `now` (the default
 * list window starts yesterday in the site's time zone).
 */
export function cacheKey(request: Request, url: URL, now: Date): string | null {
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD') return null;
  if (request.headers.has('authorization')) return null;
  const query = new URLSearchParams(url.search);
  for (const [name, value] of query) {
    if (name === 'password') return null;
    if (DATE_PARAMS.has(name.replace(/\[\]$/, '')) && !LITERAL_DATE.test(value.trim())) {
      return null;
    }
  }
  query.sort();
  let key = `${Math.floor(now.getTime() / NOW_BUCKET_MS)} ${url.pathname}?${query.toString()}`;
  for (const name of KEY_HEADERS) key += `\n${request.headers.get(name) ?? ''}`;
  return key;
}
