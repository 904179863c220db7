import type { AppContext } from '../context';
import { InvalidParamError, MissingParamError, invalid, type InvalidParams } from '../lib/errors';
import { parseCost } from './input-cost';
import { eventDates } from './input-dates';
import { findById } from '../posts/store/posts';
import type { Queryable } from '../db/queryable';
import type { EventRow } from '../db/rows';
import type { EventOrganizerInput } from '../places/organizers';
import {
  checkAuthor,
  checkWebsite,
  effectiveStatus,
  has,
  publishDates,
  requireText,
  resolveImage,
  richText,
  uniqueSlug,
  type PublishingInput,
} from '../posts/fields';
import type { EventVenueInput } from '../places/venues';

/** Field validation and normalisation of event writes: input fields → event columns. */

/** GraphQL `EventInput`. Absent keys mean "unchanged" on update; null/"" clears. */
export interface EventInput extends PublishingInput {
  title?: string | null;
  timezone?: string | null;
  all_day?: boolean | null;
  start_date?: string | null;
  end_date?: string | null;
  cost?: unknown;
  show_map?: boolean | null;
  show_map_link?: boolean | null;
  hide_from_listings?: boolean | null;
  sticky?: boolean | null;
  featured?: boolean | null;
  categories?: string[] | null;
  tags?: string[] | null;
  venue?: EventVenueInput | null;
  organizer?: EventOrganizerInput[] | null;
  password?: string | null;
  post_parent?: number | null;
}

/** Event columns a write sets (all of them on create, the changed ones on update). */
export type EventChanges = Partial<Omit<EventRow, 'id'>>;

const FLAGS = ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;
const REQUIRED = ['title', 'start_date', 'end_date'] as const;

/** Collects every invalid field of a write so the client hears about all of them at once. */
class Problems {
  readonly params: InvalidParams = {};

  async run(fn: () => unknown): Promise<void> {
    try {
      await fn();
    } catch (error) {
      if (!(error instanceof InvalidParamError)) throw error;
      Object.assign(this.params, error.params);
    }
  }

  throwIfAny(): void {
    if (Object.keys(this.params).length) throw new InvalidParamError(this.params);
  }
}

/**
 * Validates the scalar fields of `input` and returns the columns to write. `current` is the
 * stored event on update, null on create (then every column gets a value, defaults included).
 * Links (venue, organizers, terms) are resolved by the caller. Nothing is written here except
 * an image row for a new image URL, inside the caller's transaction. Runs before the permission
 * checks (bad input is a 400 even for callers who may not write), so the caller may be anonymous.
 */
export async function eventChanges(
  ctx: AppContext,
  q: Queryable,
  input: EventInput,
  current: EventRow | null,
): Promise<EventChanges> {
  // Missing required fields are reported before any invalid value, as the reference does.
  if (!current) {
    const missing = REQUIRED.filter((name) => input[name] === undefined || input[name] === null);
    if (missing.length) throw new MissingParamError(missing);
  }
  const out: EventChanges = current ? {} : createDefaults(ctx.viewer.user?.id ?? 0);
  const p = new Problems();
  const site = ctx.config.siteTimezone;

  if (has(input, 'title')) await p.run(() => (out.title = checkTitle(input.title)));
  if (has(input, 'description')) out.description = richText(input.description);
  if (has(input, 'excerpt')) await p.run(() => (out.excerpt = checkExcerpt(input.excerpt)));
  if (has(input, 'author'))
    await p.run(async () => (out.author_id = await checkAuthor(q, input.author ?? NaN)));
  if (!current || has(input, 'status'))
    await p.run(() => (out.status = effectiveStatus(ctx.viewer, input.status)));
  for (const flag of FLAGS) if (has(input, flag)) out[flag] = input[flag] === true;
  if (has(input, 'website'))
    await p.run(
      () => (out.website = maxChars('website', checkWebsite('website', input.website), 2048)),
    );
  if (has(input, 'image'))
    await p.run(async () => (out.image_id = await resolveImage(ctx, q, 'image', input.image)));
  if (has(input, 'cost')) await p.run(() => Object.assign(out, parseCost(input.cost)));
  if (has(input, 'password'))
    await p.run(() => (out.password = maxChars('password', input.password ?? '', 255)));
  if (has(input, 'post_parent'))
    await p.run(async () => (out.parent_id = await checkParent(q, input.post_parent, current?.id)));
  await p.run(() => Object.assign(out, eventDates(input, current, site, ctx.now())));
  if (!current || has(input, 'date') || has(input, 'date_utc')) {
    // `date` is read in the event's time zone (the site's when a bad `timezone` was reported).
    const zone = out.timezone ?? current?.timezone ?? site;
    await p.run(() =>
      Object.assign(out, publishDates(input.date, input.date_utc, zone, site, ctx.now())),
    );
  }
  if (!current || has(input, 'slug')) {
    const title = out.title ?? current?.title ?? '';
    await p.run(
      async () => (out.slug = await uniqueSlug(q, 'events', input.slug, title, current?.id)),
    );
  }
  p.throwIfAny();
  return out;
}

function createDefaults(authorId: number): EventChanges {
  return {
    description: '',
    excerpt: '',
    author_id: authorId,
    password: '',
    image_id: null,
    cost: '',
    currency_symbol: '',
    currency_code: '',
    currency_position: '',
    website: '',
    show_map: false,
    show_map_link: false,
    hide_from_listings: false,
    sticky: false,
    featured: false,
    venue_id: null,
    parent_id: null,
  };
}

/** Guards column sizes so an oversized value is a 400, not a database error. */
function maxChars(name: string, text: string, max: number): string {
  if (Array.from(text).length > max) throw invalid(name, `must be at most ${max} characters`);
  return text;
}

function checkTitle(value: string | null | undefined): string {
  return maxChars('title', requireText('title', value), 500);
}

function checkExcerpt(value: string | null | undefined): string {
  const html = richText(value);
  // MySQL TEXT holds 65,535 bytes.
  if (Buffer.byteLength(html) > 65535) throw invalid('excerpt', 'must be at most 65535 bytes');
  return html;
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
  for (let depth = 0; cursor !== null && depth < 100; depth++) {
    const row: EventRow | undefined = await findById<EventRow>(q, 'events', cursor);
    if (!row) throw invalid('post_parent', reason);
    if (selfId !== undefined && row.parent_id === selfId)
      throw invalid('post_parent', 'must not be one of the event’s own descendants');
    cursor = row.parent_id;
  }
  return parentId;
}
