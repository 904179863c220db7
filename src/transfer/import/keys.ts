import { createHash } from 'node:crypto';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { globalId } from '../../lib';
import { findImportedEvents, nativeEventIds } from '../store/imports';
import type { ImportRecord } from './records';

/**
 * External ids (`key`: an ICS UID, a CSV `global_id`/`id`) and the events they name: one an
 * earlier import created from that key (`event_import_uids`), else — when the key is one of this
 * site's global ids — that native event.
 */

const KEY_MAX = 255;

/** Keys longer than the column are kept as their hash. */
export function storedKey(key: string): string {
  const trimmed = key.trim();
  return trimmed.length <= KEY_MAX
    ? trimmed
    : `sha256:${createHash('sha256').update(trimmed).digest('hex')}`;
}

/** The local event id a key names when it is one of this site's global ids. */
function ownEventId(config: Config, key: string): number | null {
  const prefix = globalId(config, 0).slice(0, -1);
  if (!key.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length);
  return /^\d{1,10}$/.test(rest) && Number(rest) > 0 ? Number(rest) : null;
}

/** `stored key → event id` of the records that update an existing event. */
export async function updateTargets(
  db: Db,
  config: Config,
  records: readonly ImportRecord[],
): Promise<Map<string, number>> {
  const keys = records.flatMap((r) => (r.key === null ? [] : [storedKey(r.key)]));
  const found = await findImportedEvents(db, keys);
  const own = new Map<string, number>();
  for (const key of keys) {
    const id = found.has(key) ? null : ownEventId(config, key);
    if (id !== null) own.set(key, id);
  }
  const native = await nativeEventIds(db, [...own.values()]);
  for (const [key, id] of own) if (native.has(id)) found.set(key, id);
  return found;
}
