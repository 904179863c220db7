import { createHash } from 'node:crypto';
import { HotRead, normalizeRows, type ImageRow, type Queryable } from '../../db';
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

/** The stored image with this URL, created when new. */
export async function findOrCreateImageByUrl(
  q: Queryable,
  url: string,
  now: string,
): Promise<number> {
  const hash = urlHash(url);
  const existing = await q('images').select('id').where({ url_hash: hash }).first();
  if (existing) return Number(existing.id);
  const id = await allocateId(q, 'image');
  const extension = (
    /\.([a-z0-9]{1,8})(?:[?#].*)?$/i.exec(new URL(url).pathname)?.[1] ?? ''
  ).toLowerCase();
  await q('images').insert({ id, url, url_hash: hash, extension, created_at: now });
  return id;
}
