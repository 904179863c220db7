import type { AppContext } from '../context';
import type { OrganizerRow, PostStatus, Queryable } from '../db';
import { listLinked, type LinkedListArgs } from './linked-post-list';
import {
  assertLinkable,
  createLinked,
  deleteLinked,
  linkedRowsById,
  linkForEvent,
  readLinked,
  updateLinked,
  type LinkedInput,
  type LinkedKind,
  type RecordKey,
} from './linked-posts';
import type { Envelope } from '../posts';
import { organizerColumns, type OrganizerFields } from './rules';

/** Organizers: their own columns; everything else is the shared linked-post logic. */

/** An organizer given inside an event write (GraphQL `EventOrganizerInput`). */
export interface EventOrganizerInput extends OrganizerFields {
  id?: number | null;
  organizer?: string | null;
  description?: string | null;
  image?: string | null;
  status?: PostStatus | null;
}

/** GraphQL `OrganizerInput`. */
export interface OrganizerInput extends LinkedInput, Omit<EventOrganizerInput, 'id'> {}

export interface OrganizerList extends Envelope {
  organizers: OrganizerRow[];
}

export const ORGANIZER_KIND: LinkedKind<OrganizerRow, OrganizerInput> = {
  resource: 'organizer',
  table: 'organizers',
  searchFields: ['title', 'description', 'excerpt', 'phone', 'email', 'website'],
  ownColumns: organizerColumns,
  loader: (ctx) => ctx.loaders.organizer,
};

export async function listOrganizers(
  ctx: AppContext,
  args: LinkedListArgs,
): Promise<OrganizerList> {
  const { rows, ...env } = await listLinked(ctx, ORGANIZER_KIND, args);
  return { organizers: rows, ...env };
}

/** Single read by id or slug; the answer carries `json_ld`. */
export function readOrganizer(ctx: AppContext, key: RecordKey): Promise<OrganizerRow> {
  return readLinked(ctx, ORGANIZER_KIND, key);
}

export function createOrganizer(ctx: AppContext, input: OrganizerInput): Promise<OrganizerRow> {
  return createLinked(ctx, ORGANIZER_KIND, input);
}

export function updateOrganizer(
  ctx: AppContext,
  key: RecordKey,
  input: OrganizerInput,
): Promise<OrganizerRow> {
  return updateLinked(ctx, ORGANIZER_KIND, key, input);
}

export function deleteOrganizer(
  ctx: AppContext,
  key: RecordKey,
  force: boolean,
): Promise<OrganizerRow> {
  return deleteLinked(ctx, ORGANIZER_KIND, key, force);
}

/**
 * The organizer id an event write links: `{id}` must be an existing, non-trashed organizer
 * (else 400 `rest_invalid_param` on `organizer`); other fields create one (de-duplicated,
 * exactly as `create_organizer`) inside `q`, the caller's transaction.
 */
export async function organizerForEvent(
  ctx: AppContext,
  q: Queryable,
  input: EventOrganizerInput,
): Promise<number> {
  return (await linkForEvent(ctx, q, ORGANIZER_KIND, input)).id;
}

/**
 * `organizerForEvent` for each of an event write's organizers, in order, answering their rows:
 * the ids given are read in one query.
 */
export async function organizersForEvent(
  ctx: AppContext,
  q: Queryable,
  inputs: readonly EventOrganizerInput[],
): Promise<OrganizerRow[]> {
  const known = await linkedRowsById(q, ORGANIZER_KIND, inputs);
  const rows: OrganizerRow[] = [];
  for (const input of inputs) rows.push(await linkForEvent(ctx, q, ORGANIZER_KIND, input, known));
  return rows;
}

/** Refuses, as an event write would, the first of `ids` that is not a live organizer. */
export function assertOrganizersLinkable(q: Queryable, ids: readonly number[]): Promise<void> {
  return assertLinkable(q, ORGANIZER_KIND, ids);
}
