import type { AppContext } from '../context';
import { invalid, utcSql } from '../lib';
import { transact, type NameLock, type Queryable } from '../db';
import { fetchImage, type FetchedImage } from './image-fetch';
import { ImageFetchError, parseAllow } from './image-guard';
import { findImageIdByUrl, findImagesByIds, insertImage } from './store/images';
import { isHttpUrl, maxChars, URL_MAX } from './fields';

/**
 * Image URLs in writes (docs/contract.md "Images"): a URL already stored is reused; a new one is
 * fetched once (`image-fetch.ts`), never while a transaction is open. A write runs in
 * `transactWithImages`: its first run meets a new URL, notes it and goes on without the image;
 * if the whole run passes (every other check, the permissions), it is rolled back, the noted
 * URLs are fetched, and the write runs again with their answers. So an invalid or forbidden
 * write fetches nothing, and a URL that cannot be fetched is a 400 that changes nothing.
 */

type Outcome = { image: FetchedImage } | { error: string };

interface ImageSession {
  /** Answers of the fetches this request made, by URL (a URL twice is fetched once). */
  outcomes: Map<string, Outcome>;
  /** New URLs the current run met; null outside `transactWithImages`. */
  pending: Set<string> | null;
}

const sessions = new WeakMap<AppContext, ImageSession>();

function sessionOf(ctx: AppContext): ImageSession {
  let session = sessions.get(ctx);
  if (!session) {
    session = { outcomes: new Map(), pending: null };
    sessions.set(ctx, session);
  }
  return session;
}

/** Thrown at the end of a run that met new URLs: rolls its transaction back. */
class ImagesPending extends Error {
  constructor(readonly urls: string[]) {
    super('image URLs to fetch before the write');
  }
}

/** Fetches at once per write; nested venues and organizers can each bring a URL. */
const FETCH_CONCURRENCY = 4;
/** Runs of one write: the first, the one with the fetched images, one more if a race moved it. */
const MAX_RUNS = 3;

export interface ImageTransactOptions {
  names?: readonly NameLock[];
  retryNames?: readonly NameLock[];
}

/** `transact` for writes that may resolve image URLs (`resolveImage`); see above. */
export async function transactWithImages<T>(
  ctx: AppContext,
  options: ImageTransactOptions,
  work: (trx: Queryable) => Promise<T>,
): Promise<T> {
  const session = sessionOf(ctx);
  for (let run = 1; ; run++) {
    try {
      return await transact(ctx.db, options, async (trx) => {
        session.pending = new Set();
        const result = await work(trx);
        if (session.pending.size) throw new ImagesPending([...session.pending]);
        return result;
      });
    } catch (error) {
      if (!(error instanceof ImagesPending) || run >= MAX_RUNS) throw error;
      // The rolled-back run may have cached rows that no longer exist.
      ctx.resetLoaders();
      await fetchAll(ctx, session, error.urls);
    } finally {
      session.pending = null;
    }
  }
}

async function fetchAll(ctx: AppContext, session: ImageSession, urls: string[]): Promise<void> {
  const limits = {
    allow: parseAllow(ctx.config.imageFetchAllow),
    timeoutMs: ctx.config.imageFetchTimeoutMs,
    maxBytes: ctx.config.imageFetchMaxBytes,
  };
  const queue = urls.filter((url) => !session.outcomes.has(url));
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      try {
        session.outcomes.set(url, { image: await fetchImage(url, limits) });
      } catch (error) {
        if (!(error instanceof ImageFetchError)) throw error;
        session.outcomes.set(url, { error: error.reason });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, queue.length) }, worker));
}

const BAD_IMAGE = 'must be the id of a stored image or an http(s) image URL';

/**
 * `""`/null removes the image; a number must be a stored image; an http(s) URL is the stored
 * image of that URL, or a new one from its fetch (inside `transactWithImages` only).
 */
export async function resolveImage(
  ctx: AppContext,
  q: Queryable,
  name: string,
  value: string | null | undefined,
): Promise<number | null> {
  const text = maxChars(name, (value ?? '').trim(), URL_MAX);
  if (text === '') return null;
  if (/^\d+$/.test(text)) {
    const [image] = await findImagesByIds(q, [Number(text)]);
    if (!image) throw invalid(name, BAD_IMAGE);
    return image.id;
  }
  if (!isHttpUrl(text)) throw invalid(name, BAD_IMAGE);
  const stored = await findImageIdByUrl(q, text);
  if (stored !== null) return stored;
  const session = sessionOf(ctx);
  if (!session.pending) throw new Error('an image URL was resolved outside transactWithImages');
  const outcome = session.outcomes.get(text);
  if (!outcome) {
    // Fetched once this run is known to pass; until then the write goes on without it.
    session.pending.add(text);
    return null;
  }
  if ('error' in outcome) throw invalid(name, outcome.error);
  const now = utcSql(ctx.now());
  return insertImage(q, text, outcome.image, now);
}
