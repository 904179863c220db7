import type { Config } from '../../config';
import type { Db, Taxonomy } from '../../db';
import { findLiveIdsByNames } from '../../places';
import { termIdsByNames } from '../../terms';
import type { BulkOptions } from '../bulk/batches';
import { bulkCreateOrganizers, bulkCreateTerms, bulkCreateVenues } from '../bulk/records';
import type { ImportOrganizer, ImportRecord, ImportVenue } from './records';

/**
 * The records a chunk of imported events links to, resolved as event writes resolve them —
 * venues and organizers by id, else by name (the oldest live record of that name, case
 * insensitive), categories and tags by slug or name — and created, a chunk at a time through
 * the bulk path, when missing. A name the event already links to keeps that link (two venues
 * may share a name: the one linked stays linked). A dry run creates nothing: a missing record
 * resolves to `MISSING`.
 */

export interface Links {
  venue_id: number | null;
  organizer_ids: number[];
  category_ids: number[];
  tag_ids: number[];
}

/** What an existing event links to now: ids with their names. */
export interface CurrentLinks {
  venue: { id: number; name: string } | null;
  organizers: { id: number; name: string }[];
  categories: { id: number; name: string }[];
  tags: { id: number; name: string }[];
}

/** The id a dry run gives a record it would create. */
export const MISSING = -1;

function lower(name: string): string {
  return name.trim().toLowerCase();
}

/** `lower(name) → id` of every named venue or organizer, created when no live one has it. */
async function placeIds<T extends ImportVenue | ImportOrganizer>(
  db: Db,
  config: Config,
  table: 'venues' | 'organizers',
  items: readonly T[],
  options: BulkOptions | null,
): Promise<Map<string, number>> {
  const nameOf = (item: T) =>
    (table === 'venues' ? (item as ImportVenue).venue : (item as ImportOrganizer).organizer) ?? '';
  const byName = new Map<string, T>();
  for (const item of items) {
    const key = lower(nameOf(item));
    if (!byName.has(key))
      byName.set(key, {
        ...item,
        [table === 'venues' ? 'venue' : 'organizer']: nameOf(item).trim(),
      });
  }
  const ids = await findLiveIdsByNames(db, table, [...byName.keys()]);
  const missing = [...byName].filter(([name]) => !ids.has(name));
  if (missing.length && options === null) missing.forEach(([name]) => ids.set(name, MISSING));
  else if (missing.length && options) {
    const records = missing.map(([, item]) => item);
    const made =
      table === 'venues'
        ? await bulkCreateVenues(db, config, records as { venue: string }[], options)
        : await bulkCreateOrganizers(db, config, records as { organizer: string }[], options);
    missing.forEach(([name], i) => ids.set(name, made[i]!));
  }
  return ids;
}

/** `lower(name) → id` of every named term, created when no term has that slug or name. */
async function termIds(
  db: Db,
  taxonomy: Taxonomy,
  names: string[],
  create: boolean,
): Promise<Map<string, number>> {
  const wanted = new Map<string, string>();
  for (const name of names) if (!wanted.has(lower(name))) wanted.set(lower(name), name.trim());
  const ids = await termIdsByNames(db, taxonomy, [...wanted.values()]);
  const missing = [...wanted].filter(([key]) => !ids.has(key)).map(([, name]) => name);
  if (missing.length && !create) missing.forEach((name) => ids.set(lower(name), MISSING));
  else if (missing.length) {
    const made = await bulkCreateTerms(
      db,
      taxonomy,
      missing.map((name) => ({ name })),
    );
    missing.forEach((name, i) => ids.set(lower(name), made[i]!));
  }
  return ids;
}

/** The id of the linked record of this name, if the event links to one. */
function linkedNamed(linked: readonly { id: number; name: string }[] | undefined, name: string) {
  return linked?.find((l) => lower(l.name) === lower(name))?.id;
}

/**
 * Resolves every link of `records`; the answer gives each record's ids. `options` null: a dry
 * run (nothing created). `current` gives the links of the event a record updates.
 */
export async function resolveLinks(
  db: Db,
  config: Config,
  records: readonly ImportRecord[],
  options: BulkOptions | null,
  current: (r: ImportRecord) => CurrentLinks | undefined = () => undefined,
): Promise<(r: ImportRecord) => Links> {
  const named = <T extends { id?: number | null }>(items: readonly T[]) =>
    items.filter((i) => i.id === undefined || i.id === null);
  const venues = await placeIds(
    db,
    config,
    'venues',
    named(records.flatMap((r) => (r.venue ? [r.venue] : []))),
    options,
  );
  const organizers = await placeIds(
    db,
    config,
    'organizers',
    named(records.flatMap((r) => r.organizers ?? [])),
    options,
  );
  const categories = await termIds(
    db,
    'category',
    records.flatMap((r) => r.categories ?? []),
    options !== null,
  );
  const tags = await termIds(
    db,
    'tag',
    records.flatMap((r) => r.tags ?? []),
    options !== null,
  );
  return (r) => {
    const now = current(r);
    const venueId = (v: ImportVenue) => {
      const name = v.venue ?? '';
      if (v.id !== undefined && v.id !== null) return v.id;
      return now?.venue && lower(now.venue.name) === lower(name)
        ? now.venue.id
        : venues.get(lower(name))!;
    };
    const organizerId = (o: ImportOrganizer) =>
      o.id ??
      linkedNamed(now?.organizers, o.organizer ?? '') ??
      organizers.get(lower(o.organizer ?? ''))!;
    const termId = (found: Map<string, number>, linked: CurrentLinks['tags'] | undefined) => {
      return (name: string) => linkedNamed(linked, name) ?? found.get(lower(name))!;
    };
    return {
      venue_id: r.venue ? venueId(r.venue) : null,
      organizer_ids: [...new Set((r.organizers ?? []).map(organizerId))],
      category_ids: [...new Set((r.categories ?? []).map(termId(categories, now?.categories)))],
      tag_ids: [...new Set((r.tags ?? []).map(termId(tags, now?.tags)))],
    };
  };
}
