import type { Knex } from 'knex';
import type { EditScope } from '../../users';
import { whereReusable } from '../../posts';
import {
  normalizeRow,
  pageAndTotal,
  plainRows,
  whereExactly,
  whereNameIn,
  whereSameName,
  type PostRow,
  type PostStatus,
  type Queryable,
} from '../../db';

/**
 * Listing and name lookups for the records events link to: venues (through `events.venue_id`)
 * and organizers (through `event_organizers`). One filter shape serves both tables.
 */

export type LinkedTable = 'venues' | 'organizers';

/** Linked to events of these statuses, optionally starting at or after a UTC instant. */
export interface EventCondition {
  eventStatuses: readonly PostStatus[];
  startsFromUtc?: string;
}

export interface LinkedListFilter {
  statuses: readonly PostStatus[];
  /** Some single field among `fields` contains every word (case-insensitive substring). */
  search?: { words: readonly string[]; fields: readonly string[] };
  /** Only records linked to this event. */
  eventId?: number;
  /** Records linked to at least one matching event (`linked: true`) or to none (`false`). */
  hasEvents?: EventCondition & { linked: boolean };
  /** Records linked to at least one matching event. */
  upcoming?: EventCondition;
}

/** `!` escapes LIKE wildcards on every dialect (MySQL's default escape is `\`, SQLite has none). */
function likePattern(word: string): string {
  return `%${word.replace(/[!%_]/g, '!$&')}%`;
}

/** Events linked to the outer row of `table` (a correlated sub-query for EXISTS). */
function linkedEvents(q: Queryable, table: LinkedTable): Knex.QueryBuilder {
  if (table === 'venues') {
    return q('events').select('events.id').whereRaw('?? = ??', ['events.venue_id', 'venues.id']);
  }
  return q('event_organizers')
    .join('events', 'events.id', 'event_organizers.event_id')
    .select('events.id')
    .whereRaw('?? = ??', ['event_organizers.organizer_id', 'organizers.id']);
}

function matchingEvents(q: Queryable, table: LinkedTable, cond: EventCondition): Knex.QueryBuilder {
  const sub = linkedEvents(q, table).whereIn('events.status', [...cond.eventStatuses]);
  if (cond.startsFromUtc) sub.where('events.utc_start_date', '>=', cond.startsFromUtc);
  return sub;
}

export function filtered(
  q: Queryable,
  table: LinkedTable,
  filter: LinkedListFilter,
): Knex.QueryBuilder {
  const query = q(table).whereIn(`${table}.status`, [...filter.statuses]);
  const { search, eventId, hasEvents, upcoming } = filter;
  if (search) {
    query.where((anyField) => {
      for (const field of search.fields) {
        anyField.orWhere((allWords) => {
          for (const word of search.words) {
            allWords.whereRaw('LOWER(??) LIKE LOWER(?) ESCAPE ?', [
              `${table}.${field}`,
              likePattern(word),
              '!',
            ]);
          }
        });
      }
    });
  }
  if (eventId !== undefined) {
    query.whereExists(linkedEvents(q, table).where('events.id', eventId));
  }
  if (hasEvents) {
    const sub = matchingEvents(q, table, hasEvents);
    if (hasEvents.linked) query.whereExists(sub);
    else query.whereNotExists(sub);
  }
  if (upcoming) query.whereExists(matchingEvents(q, table, upcoming));
  return query;
}

/**
 * The exact total and one page (by name, then id): kept totals as the events list keeps them
 * (`pageAndTotal`), so a page of a list counted before, with no write since, is one statement.
 */
export async function findLinkedPageAndTotal<T extends PostRow>(
  q: Queryable,
  table: LinkedTable,
  filter: LinkedListFilter,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: T[] }> {
  const key = `${table} ${JSON.stringify(filter)}`;
  const { total, rows } = await pageAndTotal(
    q,
    key,
    () => filtered(q, table, filter).count({ total: '*' }),
    { key: `${limit} ${offset} ${key}`, build: () => pageQuery(q, table, filter, limit, offset) },
    offset,
  );
  return { total, rows: plainRows<T>(rows) };
}

export async function countLinkedPosts(
  q: Queryable,
  table: LinkedTable,
  filter: LinkedListFilter,
): Promise<number> {
  const [row] = await filtered(q, table, filter).count<{ n: number | string }[]>({ n: '*' });
  return Number(row?.n ?? 0);
}

/** One page, by name (case-insensitively, the same on every dialect) then id. */
function pageQuery(
  q: Queryable,
  table: LinkedTable,
  filter: LinkedListFilter,
  limit: number,
  offset: number,
): Knex.QueryBuilder {
  return filtered(q, table, filter)
    .select(`${table}.*`)
    .orderByRaw('LOWER(??) ASC, ?? ASC', [`${table}.title`, `${table}.id`])
    .limit(limit)
    .offset(offset);
}

/**
 * The oldest non-trashed record with this name (case-insensitive) and, when given, this exact
 * (already sanitised) description, among those the caller may reuse (`whereReusable`: published
 * ones and those in `reusable`, the caller's edit scope): the de-duplication target of a create.
 */
export async function findLiveByName<T extends PostRow>(
  q: Queryable,
  table: LinkedTable,
  name: string,
  description: string | null,
  reusable: EditScope,
): Promise<T | undefined> {
  // The same answer on both databases: case folded (Unicode), accents and description exact.
  const query = whereSameName(q, q(table), 'title', name).whereNot('status', 'trash').orderBy('id');
  whereReusable(query, table, reusable);
  if (description !== null) whereExactly(q, query, 'description', description);
  const row = await query.first();
  return row ? normalizeRow<T>(row) : undefined;
}

/**
 * Is the record linked from an event of another author than `userId` (any status: a trashed
 * event can come back)? Such a record is no longer its author's alone to change.
 */
export async function linkedByOthers(
  q: Queryable,
  table: LinkedTable,
  id: number,
  userId: number,
): Promise<boolean> {
  const events =
    table === 'venues'
      ? q('events').where('events.venue_id', id)
      : q('event_organizers')
          .join('events', 'events.id', 'event_organizers.event_id')
          .where('event_organizers.organizer_id', id);
  const row = await events.whereNot('events.author_id', userId).first(q.raw('1 as linked'));
  return row !== undefined;
}

/**
 * `findLiveByName` (without a description) for many names in one query, as imports resolve the
 * venues and organizers of a thousand events at once: `lower(name) → id` of the oldest
 * non-trashed record of each name.
 */
export async function findLiveIdsByNames(
  q: Queryable,
  table: LinkedTable,
  names: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  if (lowered.length === 0) return out;
  const rows: { id: number; title: string }[] = await whereNameIn(q, q(table), 'title', lowered)
    .select('id', 'title')
    .whereNot('status', 'trash')
    .orderBy('id');
  for (const r of rows) {
    const key = r.title.toLowerCase();
    if (!out.has(key)) out.set(key, Number(r.id));
  }
  return out;
}
