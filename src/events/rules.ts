import type { EventRow } from '../db';
import {
  MEDIUMTEXT_BYTES_MAX,
  TEXT_BYTES_MAX,
  TEXT_MAX,
  TITLE_MAX,
  checkWebsite,
  maxChars,
  requireText,
  richText,
} from '../posts';

/**
 * The rule set of event fields: every limit as a named constant and every field check that
 * needs no database. Single writes (`input.ts`), the bulk path and every importer call these,
 * so an event is held to one set of rules whichever way it comes in.
 */

/** Column sizes (migrations): VARCHAR sizes count characters, TEXT sizes bytes. */
export const EVENT_TITLE_MAX = TITLE_MAX;
export const EVENT_EXCERPT_BYTES_MAX = TEXT_BYTES_MAX;
export const EVENT_DESCRIPTION_BYTES_MAX = MEDIUMTEXT_BYTES_MAX;
export const EVENT_PASSWORD_MAX = TEXT_MAX;
export const EVENT_COST_MAX = 1000;
/** How far `post_parent` chains are followed when looking for a loop. */
export const EVENT_PARENT_DEPTH_MAX = 100;

/** Fields a create must carry (reported missing before any invalid value, as the reference). */
export const EVENT_REQUIRED = ['title', 'start_date', 'end_date'] as const;

/** Yes/no columns: `true` sets them, anything else clears them. */
export const EVENT_FLAGS = [
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
] as const;

export const ZONE_REASON = 'must be a time zone such as "Europe/Paris", "UTC" or "UTC+2"';
export const NOT_A_DATE = 'is not a date';
export const EMPTY_DATE = 'must be a non-empty date';
export const END_BEFORE_START = 'the end of the event must not be before its start';
export const COST_REASON = 'must be a string, a number, or a list of strings and numbers';

/** Columns a create fills when its input leaves them out. */
export function eventCreateDefaults(authorId: number): Partial<EventRow> {
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

/** The required fields absent (or null) from a create's input. */
export function missingEventFields(input: Partial<Record<string, unknown>>): string[] {
  return EVENT_REQUIRED.filter((name) => input[name] === undefined || input[name] === null);
}

export function checkEventTitle(value: string | null | undefined): string {
  return requireText('title', value, EVENT_TITLE_MAX);
}

export function checkEventDescription(value: string | null | undefined): string {
  return richText(value, 'description', EVENT_DESCRIPTION_BYTES_MAX);
}

export function checkEventExcerpt(value: string | null | undefined): string {
  return richText(value, 'excerpt', EVENT_EXCERPT_BYTES_MAX);
}

export function checkEventWebsite(value: string | null | undefined): string {
  return checkWebsite('website', value);
}

export function checkEventPassword(value: string | null | undefined): string {
  return maxChars('password', value ?? '', EVENT_PASSWORD_MAX);
}

export function eventFlag(value: boolean | null | undefined): boolean {
  return value === true;
}
