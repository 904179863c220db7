import { createHash } from 'node:crypto';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { globalId } from '../../lib';
import { slugBase } from '../../posts';
import { eventIdsBySlugs, existingEventIds, findImportedEvents } from '../store/imports';
import type { ImportRecord } from './records';

/**
 * A row's identity (docs/import-export.md "Identity"): its key — the CSV `global_id`, the ICS
 * `UID` — else its slug. A key names the event an earlier import created from it
 * (`event_import_uids`) or, when it is one of this site's global ids (`host?id=N`), event N;
 * exports write each event under that same key, so an export names its own records. A row
 * without a key names the event with its slug. Whichever way a row found its event, its slug,
 * when it has one, must be that event's (for a new event: a slug no event has), else the row
 * fails: that is what keeps a row from ever overwriting another record.
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

/** The slug a row asks for, as a write would store it (null: none given, or unusable). */
export function requestedSlug(r: ImportRecord): string | null {
  const slug = r.fields.slug;
  if (!slug) return null;
  try {
    return slugBase(slug, '');
  } catch {
    return null; // reported by the record's check
  }
}

/** What a row is: a new event, an existing one, or a row that cannot be trusted with either. */
export type Match = { id: number } | { id: null } | { conflict: string };

function describe(id: number, slugOf: Map<number, string>): string {
  const slug = slugOf.get(id);
  return slug === undefined ? `event #${id}` : `event #${id} (slug "${slug}")`;
}

/** Every record's match, read in a few queries for the whole chunk (nothing is written). */
export async function matchRecords(
  db: Db,
  config: Config,
  records: readonly ImportRecord[],
): Promise<Map<ImportRecord, Match>> {
  const keys = records.flatMap((r) => (r.key === null ? [] : [storedKey(r.key)]));
  const imported = await findImportedEvents(db, keys);
  const own = new Map<string, number>();
  for (const key of keys) {
    const id = ownEventId(config, key);
    if (id !== null) own.set(key, id);
  }
  const existing = await existingEventIds(db, [...own.values()]);
  const slugs = records.flatMap((r) => requestedSlug(r) ?? []);
  const bySlug = await eventIdsBySlugs(db, slugs);
  const slugOf = new Map([...bySlug].map(([slug, id]) => [id, slug]));

  const out = new Map<ImportRecord, Match>();
  for (const r of records) {
    const slug = requestedSlug(r);
    const slugOwner = slug === null ? undefined : bySlug.get(slug);
    if (r.key === null) {
      out.set(r, { id: slugOwner ?? null });
      continue;
    }
    const key = storedKey(r.key);
    const candidates = new Set<number>();
    const recorded = imported.get(key);
    if (recorded !== undefined) candidates.add(recorded);
    const ownId = own.get(key);
    if (ownId !== undefined && existing.has(ownId)) candidates.add(ownId);
    // Two events answer to the key (one of this site's ids, which another calendar at the same
    // address had too): the slug tells them apart, or nothing is written.
    const found = candidates.size > 1 && slugOwner !== undefined ? [slugOwner] : [...candidates];
    if (found.length > 1 || (found.length === 1 && !candidates.has(found[0]!))) {
      const named = [...candidates].map((id) => describe(id, slugOf)).join(' and ');
      out.set(r, { conflict: `the key "${r.key}" names both ${named}; give the slug of one` });
      continue;
    }
    const id = found[0] ?? null;
    if (slugOwner !== undefined && slugOwner !== id) {
      const target = id === null ? 'a new event' : `event #${id}`;
      out.set(r, {
        conflict: `the key "${r.key}" names ${target}, but the slug "${slug}" is event #${slugOwner}'s: nothing written`,
      });
      continue;
    }
    if (id !== null && slug !== null && slugOwner === undefined) {
      out.set(r, {
        conflict: `the key "${r.key}" names event #${id}, whose slug is not "${slug}" (another calendar's row?): nothing written`,
      });
      continue;
    }
    out.set(r, { id });
  }
  return out;
}
