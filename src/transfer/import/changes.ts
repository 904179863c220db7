import type { EventRow } from '../../db';
import type { EventInput, EventWriter } from '../../events';
import { eventFieldColumns, throwEventProblems } from '../../events';
import { Problems } from '../../posts';
import { costText, storedWebsite } from '../csv/columns';
import type { ExportEvent } from '../export-rows';
import { eventFieldsOf } from './check';
import type { CurrentLinks, Links } from './links';
import type { ImportEventFields, ImportRecord } from './records';

/**
 * What a row would change in the event it updates. Each column the row's fields give (through
 * the events domain's normaliser) is compared with the stored one, and with the one the event's
 * own export gives when read back — an export writes a stored cost `10, 20` as `$10, $20` with
 * the site's symbol, which reads back differently but shows the same — and the links by id. A
 * row equal on every column either way changes nothing and is not written at all (its
 * modification time stays).
 */

/** The update a row asks for: only the fields the source carries. */
export function updateInput(r: ImportRecord, l: Links): EventInput {
  const input: EventInput = eventFieldsOf(r.fields);
  // The publication date is set once, by the import that created the event.
  delete input.date_utc;
  if (!input.status) delete input.status;
  // The slug is the row's identity: it names this event already (`keys.ts`).
  delete input.slug;
  if (r.venue !== undefined) input.venue = l.venue_id === null ? null : { id: l.venue_id };
  if (r.organizers !== undefined) input.organizer = l.organizer_ids.map((o) => ({ id: o }));
  if (r.categories !== undefined) input.categories = l.category_ids.map(String);
  if (r.tags !== undefined) input.tags = l.tag_ids.map(String);
  return input;
}

/** The event's fields as a reader gives them from the event's own export. */
function exportedFields(e: ExportEvent): ImportEventFields {
  return {
    title: e.title,
    start_date: e.start_date,
    end_date: e.end_date,
    timezone: e.timezone,
    all_day: e.all_day,
    description: e.description,
    excerpt: e.excerpt,
    status: e.status,
    cost: costText(e),
    website: storedWebsite(e),
    featured: e.featured,
    sticky: e.sticky,
    hide_from_listings: e.hide_from_listings,
    show_map: e.show_map,
    show_map_link: e.show_map_link,
  };
}

/** The links of an exported event, for `resolveLinks` to keep. */
export function linksOf(e: ExportEvent): CurrentLinks {
  const pair = (id: number, name: string) => ({ id, name });
  return {
    venue: e.venue && pair(e.venue.id, e.venue.venue),
    organizers: e.organizer.map((o) => pair(o.id, o.organizer)),
    categories: e.categories.map((t) => pair(t.id, t.name)),
    tags: e.tags.map((t) => pair(t.id, t.name)),
  };
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Does the update `input` change `current` (the event as exported)? Throws the row's problems
 * as the update itself would (an invalid field fails the row either way).
 */
export function changes(
  w: EventWriter,
  input: EventInput,
  current: ExportEvent,
  stored: EventRow,
): boolean {
  const p = new Problems();
  const own = exportedFields(current);
  const mine: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (key in own) mine[key] = own[key as keyof ImportEventFields];
  }
  // Both sides through the normaliser, against no stored row: every column they give compared.
  const wanted = eventFieldColumns(w, { ...own, ...input } as EventInput, null, p);
  throwEventProblems(p.params);
  const now = eventFieldColumns(w, { ...own, ...mine } as EventInput, null, new Problems());
  for (const column of Object.keys(wanted) as (keyof typeof wanted)[]) {
    if (column === 'date' || column === 'date_utc' || column === 'author_id') continue;
    if (wanted[column] !== now[column] && wanted[column] !== stored[column]) return true;
  }
  const links = linksOf(current);
  if (input.venue !== undefined && (input.venue?.id ?? null) !== (links.venue?.id ?? null))
    return true;
  const ids = (items: readonly { id?: number | null }[] | null | undefined) =>
    (items ?? []).map((i) => Number(i.id));
  if (input.organizer !== undefined && !sameList(ids(input.organizer), ids(links.organizers)))
    return true;
  const termIds = (list: readonly string[] | null | undefined) => (list ?? []).map(Number);
  if (input.categories !== undefined && !sameList(termIds(input.categories), ids(links.categories)))
    return true;
  if (input.tags !== undefined && !sameList(termIds(input.tags), ids(links.tags))) return true;
  return false;
}
