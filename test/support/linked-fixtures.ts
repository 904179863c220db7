import type { PostStatus } from '../../src/db/rows';
import type { TestEnv } from './harness';

/**
 * Events inserted straight into the database, so venue and organizer tests can link records to
 * events without depending on the event write path.
 */

export interface FixtureEvent {
  /** UTC start, `YYYY-MM-DD HH:MM:SS`; the event lasts two hours. Default: a month after now. */
  start?: string;
  status?: PostStatus;
  venueId?: number | null;
  organizerIds?: number[];
  title?: string;
}

let counter = 0;

function plusHours(sql: string, hours: number): string {
  const date = new Date(`${sql.replace(' ', 'T')}Z`);
  date.setUTCHours(date.getUTCHours() + hours);
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** Inserts one event (in UTC) with its venue and organizer links; returns its id. */
export async function insertEvent(env: TestEnv, event: FixtureEvent = {}): Promise<number> {
  const n = ++counter;
  const start = event.start ?? '2026-12-21 18:00:00';
  const end = plusHours(start, 2);
  const stamp = '2026-11-01 00:00:00';
  const [rawId] = await env.db('post_ids').insert({ type: 'event' });
  const id = Number(rawId);
  await env.db('events').insert({
    id,
    status: event.status ?? 'publish',
    slug: `fixture-event-${process.pid}-${n}`,
    title: event.title ?? `Fixture event ${n}`,
    description: '',
    excerpt: '',
    author_id: 1,
    date: stamp,
    date_utc: stamp,
    modified: stamp,
    modified_utc: stamp,
    start_date: start,
    end_date: end,
    utc_start_date: start,
    utc_end_date: end,
    timezone: 'UTC',
    venue_id: event.venueId ?? null,
  });
  const organizers = event.organizerIds ?? [];
  if (organizers.length) {
    await env
      .db('event_organizers')
      .insert(
        organizers.map((organizer_id, position) => ({ event_id: id, organizer_id, position })),
      );
  }
  return id;
}

/** Every scalar field of a venue (json_ld and image included). */
export const VENUE_FIELDS = `id author status date date_utc modified modified_utc url venue
  description excerpt slug image { id url extension } address city country province state zip
  phone website stateprovince geo_lat geo_lng json_ld show_map show_map_link global_id
  global_id_lineage`;

/** Every scalar field of an organizer (json_ld and image included). */
export const ORGANIZER_FIELDS = `id author status date date_utc modified modified_utc url
  organizer description excerpt slug image { id url extension } phone website email json_ld
  global_id global_id_lineage`;

/** The first error of a GraphQL answer, as tests assert it. */
export function firstError(result: { errors?: { extensions?: Record<string, any> }[] }): {
  code?: string;
  rest_code?: string;
  params?: unknown;
} {
  const ext = result.errors?.[0]?.extensions ?? {};
  return { code: ext.code, rest_code: ext.rest_code, params: ext.params };
}
