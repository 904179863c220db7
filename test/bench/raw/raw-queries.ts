import type { Config } from '../../../src/config/config';
import { nowIn } from '../../../src/lib/dates';
import type { EventRow, ImageRow, OrganizerRow, TermRow, VenueRow } from '../../../src/db/rows';
import { envelope } from '../../../src/posts/paging';
import type { RawDb } from './raw-db';
import { event, normalize, type EventParts } from './raw-present';

/**
 * The raw baseline's handlers: hand-written SQL through the driver, then the JSON of
 * raw-present.ts. A list costs 5 queries (count, page, venues, organizers, terms; +1 term lookup
 * with `categories`), a single event 4.
 */

type Linked<T> = T & { link_event_id: number };

// Anonymous callers list published events only (docs/contract.md §6 `status`).
const PUBLISHED = "status = 'publish'";

async function parts(db: RawDb, rows: EventRow[]): Promise<Map<number, EventParts>> {
  const ids = rows.map((r) => r.id);
  const marks = ids.map(() => '?').join(',');
  const venueIds = [...new Set(rows.flatMap((r) => (r.venue_id === null ? [] : [r.venue_id])))];
  const [venues, organizers, terms] = await Promise.all([
    venueIds.length
      ? db.all(`SELECT * FROM venues WHERE id IN (${venueIds.map(() => '?').join(',')})`, venueIds)
      : [],
    db.all(
      `SELECT organizers.*, event_organizers.event_id AS link_event_id FROM event_organizers
         JOIN organizers ON organizers.id = event_organizers.organizer_id
        WHERE event_organizers.event_id IN (${marks})
        ORDER BY event_organizers.event_id, event_organizers.position`,
      ids,
    ),
    db.all(
      `SELECT terms.*, event_terms.event_id AS link_event_id FROM event_terms
         JOIN terms ON terms.id = event_terms.term_id
        WHERE event_terms.event_id IN (${marks})
        ORDER BY event_terms.event_id, event_terms.position`,
      ids,
    ),
  ]);
  const venueById = new Map(
    venues.map((v) => normalize<VenueRow>(v)).map((v) => [v.id, v] as const),
  );
  const orgs = organizers.map((o) => normalize<Linked<OrganizerRow>>(o));
  const termRows = terms.map((t) => normalize<Linked<TermRow>>(t));
  const images = await imagesOf(db, [
    ...rows.map((r) => r.image_id),
    ...[...venueById.values()].map((v) => v.image_id),
    ...orgs.map((o) => o.image_id),
  ]);
  const out = new Map<number, EventParts>();
  for (const r of rows) {
    const v = r.venue_id === null ? undefined : venueById.get(r.venue_id);
    out.set(r.id, {
      // Anonymous callers see published venues and organizers only (docs/contract.md §9).
      venue: v && v.status === 'publish' ? v : null,
      organizers: orgs.filter((o) => o.link_event_id === r.id && o.status === 'publish'),
      terms: termRows.filter((t) => t.link_event_id === r.id),
      images,
    });
  }
  return out;
}

/** Images only cost a query when some row has one (the benchmark dataset has none). */
async function imagesOf(db: RawDb, ids: (number | null)[]): Promise<Map<number, ImageRow>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db.all(
    `SELECT id, url, extension, width, height FROM images WHERE id IN (${wanted.map(() => '?').join(',')})`,
    wanted,
  );
  return new Map(rows.map((r) => normalize<ImageRow>(r)).map((r) => [r.id, r] as const));
}

export interface ListQuery {
  page: number;
  perPage: number;
  category: number | null;
  search: string | null;
}

export function positiveInt(value: string | null, fallback: number): number | null {
  if (value === null) return fallback;
  return /^\d+$/.test(value) && Number(value) >= 1 ? Number(value) : null;
}

export async function list(db: RawDb, config: Config, q: ListQuery): Promise<Reply> {
  const today = nowIn(config.siteTimezone, new Date());
  const start = `${today.minus({ days: 1 }).toFormat('yyyy-LL-dd')} 00:00:00`;
  const end = `${today.plus({ months: 24 }).toFormat('yyyy-LL-dd')} 23:59:59`;
  let where = `${PUBLISHED} AND hide_from_listings = 0 AND start_date >= ? AND end_date <= ?`;
  const params: unknown[] = [start, end];
  const echo: [string, string][] = [
    ['start_date', start],
    ['end_date', end],
  ];
  if (q.search !== null) {
    const word = `%${q.search.toLowerCase().replace(/[!%_]/g, '!$&')}%`;
    where += ` AND (lower(title) LIKE ? ESCAPE '!' OR lower(description) LIKE ? ESCAPE '!'
                 OR lower(excerpt) LIKE ? ESCAPE '!')`;
    params.push(word, word, word);
    echo.push(['search', q.search]);
  }
  echo.push(['status', 'publish']);
  if (q.category !== null) {
    // An unknown term is a 400 in the contract: the service looks it up, so does the baseline.
    const [found] = await db.all("SELECT id FROM terms WHERE id = ? AND taxonomy = 'category'", [
      q.category,
    ]);
    if (!found) return problem(400, 'rest_invalid_param', 'unknown category');
    where += ` AND EXISTS (SELECT 1 FROM event_terms
                 WHERE event_terms.event_id = events.id AND event_terms.term_id IN (?))`;
    params.push(q.category);
    echo.push(['categories', String(q.category)]);
  }
  const [counted] = await db.all(`SELECT COUNT(*) AS n FROM events WHERE ${where}`, params);
  const total = Number(counted?.n ?? 0);
  const paged = { page: q.page, perPage: q.perPage, offset: (q.page - 1) * q.perPage };
  const env = envelope(config, 'event', 'events', paged, total, echo);
  // Integers validated above, inlined: MySQL prepared statements reject some LIMIT bindings.
  const rows =
    total > paged.offset
      ? (
          await db.all(
            `SELECT * FROM events WHERE ${where} ORDER BY start_date, id
              LIMIT ${paged.perPage} OFFSET ${paged.offset}`,
            params,
          )
        ).map((r) => normalize<EventRow>(r))
      : [];
  const byId = rows.length ? await parts(db, rows) : new Map<number, EventParts>();
  const body: Record<string, unknown> = {
    events: rows.map((r) => event(config, r, byId.get(r.id)!, false)),
    rest_url: env.rest_url,
  };
  if (env.next_rest_url !== null) body.next_rest_url = env.next_rest_url;
  if (env.previous_rest_url !== null) body.previous_rest_url = env.previous_rest_url;
  body.total = env.total;
  body.total_pages = env.total_pages;
  return {
    status: 200,
    body,
    headers: {
      'X-TEC-Total': String(total),
      'X-TEC-TotalPages': String(env.total_pages),
      'X-WP-Total': String(total),
      'X-WP-TotalPages': String(env.total_pages),
    },
  };
}

export async function single(
  db: RawDb,
  config: Config,
  by: 'id' | 'slug',
  key: string,
): Promise<Reply> {
  const [raw] = await db.all(`SELECT * FROM events WHERE ${by} = ?`, [
    by === 'id' ? Number(key) : key,
  ]);
  if (!raw) return problem(404, 'rest-event-not-found', 'No event with this id or slug.');
  const row = normalize<EventRow>(raw);
  if (row.status !== 'publish' || row.password !== '') {
    return problem(403, 'event-not-accessible', 'This event is not accessible.');
  }
  const found = (await parts(db, [row])).get(row.id)!;
  return { status: 200, body: event(config, row, found, true) };
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function problem(status: number, code: string, message: string): Reply {
  return { status, body: { code, message, data: { status } } };
}
