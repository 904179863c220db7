import { insertRows } from './bulk';
import type { Queryable } from '../../db';
import { utcSql } from '../../lib';

/**
 * SQL of imports and exports (`src/transfer/import-events.ts`, `src/cli/export.ts`): the
 * external ids of imported events (`event_import_uids`), name look-ups of the records events
 * link to, and keyset walks over events. Every query is bounded by its arguments.
 */

/** Event ids of these external ids, for those an earlier import recorded. */
export async function findImportedEvents(
  q: Queryable,
  uids: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (uids.length === 0) return out;
  const rows: { uid: string; event_id: number }[] = await q('event_import_uids')
    .select('uid', 'event_id')
    .whereIn('uid', [...new Set(uids)]);
  for (const r of rows) out.set(r.uid, Number(r.event_id));
  return out;
}

export async function insertImportedEvents(
  q: Queryable,
  rows: readonly { uid: string; event_id: number }[],
): Promise<void> {
  await insertRows(q, 'event_import_uids', rows);
}

/** The external id each of these events was imported under, for those an import created. */
export async function importKeysOf(
  q: Queryable,
  eventIds: readonly number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (eventIds.length === 0) return out;
  const rows: { uid: string; event_id: number }[] = await q('event_import_uids')
    .select('uid', 'event_id')
    .whereIn('event_id', [...new Set(eventIds)]);
  for (const r of rows) out.set(Number(r.event_id), r.uid);
  return out;
}

/** Of these event ids, those that exist (in any status, the trash included). */
export async function existingEventIds(q: Queryable, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows: { id: number }[] = await q('events')
    .select('id')
    .whereIn('id', [...new Set(ids)]);
  return new Set(rows.map((r) => Number(r.id)));
}

/** `slug → event id` of the events (in any status) that have exactly one of these slugs. */
export async function eventIdsBySlugs(
  q: Queryable,
  slugs: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (slugs.length === 0) return out;
  const rows: { id: number; slug: string }[] = await q('events')
    .select('id', 'slug')
    .whereIn('slug', [...new Set(slugs)]);
  for (const r of rows) out.set(r.slug, Number(r.id));
  return out;
}

/** The next `limit` non-trashed event ids after `after`, ascending. */
export async function eventIdsAfter(q: Queryable, after: number, limit: number): Promise<number[]> {
  const rows: { id: number }[] = await q('events')
    .select('id')
    .where('id', '>', after)
    .whereNot('status', 'trash')
    .orderBy('id')
    .limit(limit);
  return rows.map((r) => Number(r.id));
}

export async function countLiveEvents(q: Queryable): Promise<number> {
  const row = await q('events').whereNot('status', 'trash').count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Each time zone non-trashed events use, with the UTC span they cover. */
export async function eventZoneSpans(
  q: Queryable,
): Promise<{ timezone: string; first: string; last: string }[]> {
  const rows: { timezone: string; first: unknown; last: unknown }[] = await q('events')
    .select('timezone')
    .min({ first: 'utc_start_date' })
    .max({ last: 'utc_end_date' })
    .whereNot('status', 'trash')
    .groupBy('timezone');
  return rows.map((r) => ({
    timezone: r.timezone,
    first: sqlText(r.first),
    last: sqlText(r.last),
  }));
}

/** MySQL hands DATETIME aggregates back as Date objects (UTC connection), SQLite as text. */
function sqlText(value: unknown): string {
  if (value instanceof Date) return utcSql(value);
  return String(value ?? '');
}
