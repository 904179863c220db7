import { createHash } from 'node:crypto';
import { HotRead, normalizeRows, type ImageRow, type Queryable } from '../../db';
import type { FetchedImage } from '../image-fetch';
import { allocateId } from './posts';

const BY_IDS = new HotRead((q, ids) =>
  q('images').select('id', 'url', 'extension', 'width', 'height').whereIn('id', ids),
);

export async function findImagesByIds(q: Queryable, ids: readonly number[]): Promise<ImageRow[]> {
  if (ids.length === 0) return [];
  return normalizeRows<ImageRow>(await BY_IDS.run(q, ids));
}

function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

/** The id of the stored image with this URL, or null. */
export async function findImageIdByUrl(q: Queryable, url: string): Promise<number | null> {
  const existing = await q('images')
    .select('id')
    .where({ url_hash: urlHash(url) })
    .first();
  return existing ? Number(existing.id) : null;
}

/**
 * Stores a fetched image under its URL. Two writes storing one new URL at once: the unique
 * `url_hash` fires for the second, whose transaction runs again and then reuses the first's.
 */
export async function insertImage(
  q: Queryable,
  url: string,
  facts: FetchedImage,
  now: string,
): Promise<number> {
  const id = await allocateId(q, 'image');
  await q('images').insert({
    id,
    url,
    url_hash: urlHash(url),
    extension: facts.extension,
    width: facts.width,
    height: facts.height,
    mime_type: facts.mime,
    created_at: now,
  });
  return id;
}
