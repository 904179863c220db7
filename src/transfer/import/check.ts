import type { PostStatus } from '../../db';
import {
  eventFieldColumns,
  throwEventProblems,
  type EventChanges,
  type EventFields,
  type EventWriter,
} from '../../events';
import { invalid } from '../../lib';
import {
  asEventProblem,
  checkPlaceName,
  organizerColumns,
  placeColumns,
  venueColumns,
  type PlaceWriter,
} from '../../places';
import { Problems, slugBase } from '../../posts';
import { checkNewTermName } from '../../terms';
import type { ImportEventFields, ImportOrganizer, ImportRecord, ImportVenue } from './records';

/**
 * An import record checked before anything is written, by the rules a single write of the same
 * event would meet (`create_event` with its venue, organizers and terms given inline): the
 * events domain's normaliser, the places domain's columns, the terms domain's names. A bad
 * record is reported and skipped.
 */

/** The event fields of a record, as a write's input (an empty status means none). */
export function eventFieldsOf(fields: ImportEventFields): EventFields & { slug?: string | null } {
  return { ...fields, status: (fields.status || null) as PostStatus | null };
}

/** A venue or organizer given inline: an id (checked when written), or a name and fields. */
async function checkPlace(
  w: PlaceWriter,
  resource: 'venue' | 'organizer',
  input: ImportVenue | ImportOrganizer,
): Promise<void> {
  if (input.id !== undefined && input.id !== null) return;
  const name =
    resource === 'venue' ? (input as ImportVenue).venue : (input as ImportOrganizer).organizer;
  if (name === undefined || name === null) throw invalid(resource, 'needs an id or a name');
  try {
    checkPlaceName(resource, name);
    const own = resource === 'venue' ? venueColumns : organizerColumns;
    await placeColumns(w, input, true, own, async () => undefined);
  } catch (error) {
    throw asEventProblem(resource, error);
  }
}

/**
 * Throws the record's problems as a single write would: every bad event field at once, else the
 * first bad venue, organizer or term (each an `InvalidParamError` naming its field). Answers the
 * event's columns, so that a create need not normalise them again.
 */
export async function checkRecord(w: EventWriter, r: ImportRecord): Promise<EventChanges> {
  const p = new Problems();
  const fields = eventFieldsOf(r.fields);
  const columns = eventFieldColumns(w, fields, null, p);
  p.check(() => slugBase(fields.slug, columns.title ?? ''));
  throwEventProblems(p.params);
  if (r.venue) await checkPlace(w, 'venue', r.venue);
  for (const o of r.organizers ?? []) await checkPlace(w, 'organizer', o);
  for (const name of r.categories ?? []) checkNewTermName('category', name.trim());
  for (const name of r.tags ?? []) checkNewTermName('tag', name.trim());
  return columns;
}
