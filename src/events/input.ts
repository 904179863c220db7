import type { AppContext } from '../context';
import { invalid, InvalidParamError, MissingParamError, type InvalidParams } from '../lib';
import type { EventRow, PostStatus, Queryable } from '../db';
import type { EventOrganizerInput, EventVenueInput } from '../places';
import {
  checkAuthor,
  effectiveStatus,
  findById,
  has,
  Problems,
  publishDates,
  resolveImage,
  slugBase,
  uniqueSlug,
  type PublishingInput,
} from '../posts';
import type { Viewer } from '../users';
import { parseCost } from './input-cost';
import { EventDateReader, type EventDateInput } from './input-dates';
import {
  EVENT_FLAGS,
  EVENT_PARENT_DEPTH_MAX,
  checkEventDescription,
  checkEventExcerpt,
  checkEventPassword,
  checkEventTitle,
  checkEventWebsite,
  eventCreateDefaults,
  eventFlag,
  missingEventFields,
} from './rules';

/**
 * Field validation and normalisation of event writes: input fields → event columns. The one
 * normaliser of events: single writes run `eventChanges`; the bulk path and importers run its
 * database-free part, `eventFieldColumns`, once per record.
 */

/** The yes/no fields (`EVENT_FLAGS`), as every write path and importer carries them. */
export type EventFlagFields = { [flag in (typeof EVENT_FLAGS)[number]]?: boolean | null };

/** An event's own fields, without its links: what every write path carries. */
export interface EventFields extends EventDateInput, EventFlagFields {
  title?: string | null;
  description?: string | null;
  excerpt?: string | null;
  status?: PostStatus | null;
  website?: string | null;
  cost?: unknown;
  password?: string | null;
  /** Publication date in the event's time zone, or `date_utc` in UTC; default: now. */
  date?: string | null;
  date_utc?: string | null;
}

/** GraphQL `EventInput`. Absent keys mean "unchanged" on update; null/"" clears. */
export interface EventInput extends EventFields, PublishingInput {
  categories?: string[] | null;
  tags?: string[] | null;
  venue?: EventVenueInput | null;
  organizer?: EventOrganizerInput[] | null;
  post_parent?: number | null;
}

/** Event columns a write sets (all of them on create, the changed ones on update). */
export type EventChanges = Partial<Omit<EventRow, 'id'>>;

/** What the field rules need besides the input: who writes, where, when. */
export interface EventWriter {
  viewer: Viewer;
  siteZone: string;
  now: Date;
  /** Kept for a whole import by the bulk path, so its caches stay warm. */
  dates: EventDateReader;
}

/**
 * The order problems are reported in (`Invalid parameter(s): …`), whichever check found them
 * first: the order of the fields in the contract's reference.
 */
const REPORT_ORDER = [
  'title',
  'description',
  'excerpt',
  'author',
  'status',
  'website',
  'image',
  'cost',
  'password',
  'post_parent',
  'timezone',
  'start_date',
  'end_date',
  'date_utc',
  'date',
  'slug',
];

/**
 * The columns of the event's own fields present in `input` (every column on create, defaults
 * included), by the checks that need no database; invalid fields are collected in `p`.
 */
export function eventFieldColumns(
  w: EventWriter,
  input: EventFields,
  current: EventRow | null,
  p: Problems,
): EventChanges {
  if (!current) {
    const missing = missingEventFields(input as Record<string, unknown>);
    if (missing.length) throw new MissingParamError(missing);
  }
  const out: EventChanges = current ? {} : eventCreateDefaults(w.viewer.user?.id ?? 0);
  if (has(input, 'title')) p.check(() => (out.title = checkEventTitle(input.title)));
  // An oversized description is reported alone, before the other fields (the reference's order).
  if (has(input, 'description')) out.description = checkEventDescription(input.description);
  if (has(input, 'excerpt')) p.check(() => (out.excerpt = checkEventExcerpt(input.excerpt)));
  if (!current || has(input, 'status'))
    p.check(() => (out.status = effectiveStatus(w.viewer, input.status, current?.status)));
  for (const flag of EVENT_FLAGS) if (has(input, flag)) out[flag] = eventFlag(input[flag]);
  if (has(input, 'website')) p.check(() => (out.website = checkEventWebsite(input.website)));
  if (has(input, 'cost')) p.check(() => Object.assign(out, parseCost(input.cost)));
  if (has(input, 'password')) p.check(() => (out.password = checkEventPassword(input.password)));
  p.check(() => Object.assign(out, w.dates.change(input, current)));
  if (!current || has(input, 'date') || has(input, 'date_utc')) {
    // `date` is read in the event's time zone (the site's when a bad `timezone` was reported).
    const zone = out.timezone ?? current?.timezone ?? w.siteZone;
    p.check(() =>
      Object.assign(out, publishDates(input.date, input.date_utc, zone, w.siteZone, w.now)),
    );
  }
  return out;
}

/**
 * Validates the fields of `input` and returns the columns to write. `current` is the stored
 * event on update, null on create. Links (venue, organizers, terms) are resolved by the caller.
 * Nothing is written here except an image row for a new image URL, inside the caller's
 * transaction. Runs before the permission checks (bad input is a 400 even for callers who may
 * not write), so the caller may be anonymous.
 */
export async function eventChanges(
  ctx: AppContext,
  q: Queryable,
  input: EventInput,
  current: EventRow | null,
): Promise<EventChanges> {
  const site = ctx.config.siteTimezone;
  const now = ctx.now();
  const p = new Problems();
  const w: EventWriter = {
    viewer: ctx.viewer,
    siteZone: site,
    now,
    dates: new EventDateReader(site, now),
  };
  const out = eventFieldColumns(w, input, current, p);
  if (has(input, 'author'))
    await collect(p, async () => (out.author_id = await checkAuthor(q, input.author ?? NaN)));
  if (has(input, 'image'))
    await collect(p, async () => (out.image_id = await resolveImage(ctx, q, 'image', input.image)));
  if (has(input, 'post_parent'))
    await collect(
      p,
      async () => (out.parent_id = await checkParent(q, input.post_parent, current?.id)),
    );
  if (!current) {
    // The insert makes it unique (`insertPost`): a free slug costs no read.
    p.check(() => (out.slug = slugBase(input.slug, out.title ?? '')));
  } else if (has(input, 'slug')) {
    const title = out.title ?? current.title;
    await collect(
      p,
      async () => (out.slug = await uniqueSlug(q, 'events', input.slug, title, current.id)),
    );
  }
  throwEventProblems(p.params);
  return out;
}

/** `Problems.check` for checks that read the database. */
async function collect(p: Problems, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (!(error instanceof InvalidParamError)) throw error;
    Object.assign(p.params, error.params);
  }
}

/** Throws the problems found, if any, in the order single writes report them. */
export function throwEventProblems(params: InvalidParams): void {
  const names = Object.keys(params);
  if (!names.length) return;
  const rank = (name: string) => {
    const at = REPORT_ORDER.indexOf(name);
    return at < 0 ? REPORT_ORDER.length : at;
  };
  const sorted: InvalidParams = {};
  for (const name of names.sort((a, b) => rank(a) - rank(b))) sorted[name] = params[name]!;
  throw new InvalidParamError(sorted);
}

/** `post_parent`: null/0 clears; else an existing event that is not this one nor its descendant. */
async function checkParent(
  q: Queryable,
  parentId: number | null | undefined,
  selfId: number | undefined,
): Promise<number | null> {
  if (!parentId) return null;
  const reason = 'must be the id of another existing event';
  if (!Number.isInteger(parentId) || parentId === selfId) throw invalid('post_parent', reason);
  // Walk up from the new parent: meeting ourselves would make a loop in the series tree.
  let cursor: number | null = parentId;
  for (let depth = 0; cursor !== null && depth < EVENT_PARENT_DEPTH_MAX; depth++) {
    const row: EventRow | undefined = await findById<EventRow>(q, 'events', cursor);
    if (!row) throw invalid('post_parent', reason);
    if (selfId !== undefined && row.parent_id === selfId)
      throw invalid('post_parent', 'must not be one of the event’s own descendants');
    cursor = row.parent_id;
  }
  return parentId;
}
