import type { Db } from '../../src/db/knex';
import type { Taxonomy } from '../../src/db/rows';
import { refreshTermCounts } from '../../src/terms/terms';

/**
 * Rows for the term tests, inserted straight into the database: term tests must not depend on
 * the event-write code, so events are bare rows with every NOT NULL column filled.
 */

let sequence = 0;
const unique = (): string => `${process.pid}-${++sequence}`;

export interface TermFixture {
  name: string;
  slug?: string;
  description?: string;
  parent_id?: number | null;
}

export async function addTerm(db: Db, taxonomy: Taxonomy, term: TermFixture): Promise<number> {
  const [id] = await db('terms').insert({
    taxonomy,
    name: term.name,
    slug: term.slug ?? `${taxonomy}-${unique()}`,
    description: term.description ?? '',
    parent_id: term.parent_id ?? null,
    count: 0,
  });
  return Number(id);
}

export interface EventFixture {
  status?: string;
  title?: string;
}

export async function addEvent(db: Db, event: EventFixture = {}): Promise<number> {
  const [id] = await db('post_ids').insert({ type: 'event' });
  const stamp = '2026-11-01 10:00:00';
  await db('events').insert({
    id: Number(id),
    status: event.status ?? 'publish',
    slug: `event-${unique()}`,
    title: event.title ?? 'An event',
    description: '',
    excerpt: '',
    author_id: 1,
    date: stamp,
    date_utc: stamp,
    modified: stamp,
    modified_utc: stamp,
    start_date: '2026-12-01 20:00:00',
    end_date: '2026-12-01 22:00:00',
    utc_start_date: '2026-12-01 20:00:00',
    utc_end_date: '2026-12-01 22:00:00',
    timezone: 'UTC',
  });
  return Number(id);
}

/** Links terms to an event in the given order and refreshes their counts. */
export async function linkTerms(db: Db, eventId: number, termIds: number[]): Promise<void> {
  await db('event_terms').insert(
    termIds.map((term_id, position) => ({ event_id: eventId, term_id, position })),
  );
  await refreshTermCounts(db, termIds);
}

/** An event with this status, linked to these terms. */
export async function eventWith(db: Db, termIds: number[], status = 'publish'): Promise<number> {
  const id = await addEvent(db, { status });
  await linkTerms(db, id, termIds);
  return id;
}

/** Every field of the `Term` interface plus `parent` for categories, as the REST body lists them. */
export const CATEGORY_FIELDS = `
  id count description name slug taxonomy parent meta url
  urls { self collection up }
  term_group term_taxonomy_id filter
`;

export const TAG_FIELDS = `
  id count description name slug taxonomy meta url
  urls { self collection up }
  term_group term_taxonomy_id filter
`;

export const LIST_ENVELOPE = 'rest_url total total_pages next_rest_url previous_rest_url';
