import type { Knex } from 'knex';
import {
  HotRead,
  POST_COLUMNS,
  normalizeRows,
  type OrganizerRow,
  type Queryable,
  type Taxonomy,
  type TermRow,
} from '../../db';

/** The ordered links between events and organizers / terms. */

/** A linked row with the event it belongs to (`link_event_id`). */
export type Linked<T> = T & { link_event_id: number };

/** An event's organizers and terms (categories and tags), each in link order. */
export interface EventLinks {
  organizers: OrganizerRow[];
  terms: TermRow[];
}

export const ORGANIZER_COLUMNS = [
  ...POST_COLUMNS,
  'phone',
  'website',
  'email',
] as const satisfies readonly (keyof OrganizerRow)[];
export const TERM_COLUMNS = [
  'id',
  'taxonomy',
  'name',
  'slug',
  'description',
  'parent_id',
  'count',
] as const satisfies readonly (keyof TermRow)[];
// Every column of both rows is read: a column added to a row type must be added above (and
// test/events/event-links.test.ts compares the lists with the tables).
type Unread<Row, Read extends readonly string[]> = Exclude<keyof Row, Read[number]>;
const everyColumn: [
  Unread<OrganizerRow, typeof ORGANIZER_COLUMNS>,
  Unread<TermRow, typeof TERM_COLUMNS>,
] extends [never, never]
  ? true
  : false = true;
void everyColumn;

/** The columns of the union: each row's own, the other's as NULL. */
const UNION_COLUMNS = [...new Set<string>([...ORGANIZER_COLUMNS, ...TERM_COLUMNS])];

function linkSelect(
  q: Queryable,
  links: string,
  table: string,
  foreignKey: string,
  own: readonly string[],
  kind: number,
  eventIds: readonly (number | string)[],
): Knex.QueryBuilder {
  const columns = UNION_COLUMNS.map((c) =>
    own.includes(c) ? `${table}.${c}` : q.raw(`NULL as ${c}`),
  );
  return q(links)
    .join(table, `${table}.id`, `${links}.${foreignKey}`)
    .select(
      q.raw(`${kind} as link_kind`),
      `${links}.event_id as link_event_id`,
      `${links}.position as link_position`,
      ...columns,
    )
    .whereIn(`${links}.event_id`, eventIds);
}

const ORGANIZER = 0;
const TERM = 1;

/**
 * Organizers and terms of the events in one statement (a UNION ALL of both link tables, each
 * padding the other's columns with NULL): every event response reads both. The keys are the
 * event ids twice, once per half, as `HotRead` takes them.
 */
const LINKS = new HotRead((q, keys) => {
  const ids = keys.slice(0, keys.length / 2);
  const organizers = linkSelect(
    q,
    'event_organizers',
    'organizers',
    'organizer_id',
    ORGANIZER_COLUMNS,
    ORGANIZER,
    ids,
  );
  const terms = linkSelect(q, 'event_terms', 'terms', 'term_id', TERM_COLUMNS, TERM, ids);
  return organizers.unionAll(terms);
});

type Row = Record<string, unknown>;

// Fixed shapes, built in one literal each. MariaDB types a column of the union that is an
// integer in one half and NULL in the other as a decimal, which mysql2 answers as text: ids
// are converted back to numbers (test/events/event-links.test.ts compares with plain reads).
const id = (v: unknown): number | null => (v === null ? null : Number(v));

function organizerOf(r: Row): OrganizerRow {
  return {
    id: Number(r.id),
    status: r.status as OrganizerRow['status'],
    slug: r.slug as string,
    title: r.title as string,
    description: r.description as string,
    excerpt: r.excerpt as string,
    author_id: Number(r.author_id),
    date: r.date as string,
    date_utc: r.date_utc as string,
    modified: r.modified as string,
    modified_utc: r.modified_utc as string,
    password: r.password as string,
    image_id: id(r.image_id),
    phone: r.phone as string,
    website: r.website as string,
    email: r.email as string,
  };
}

function termOf(r: Row): TermRow {
  return {
    id: Number(r.id),
    taxonomy: r.taxonomy as TermRow['taxonomy'],
    name: r.name as string,
    slug: r.slug as string,
    description: r.description as string,
    parent_id: id(r.parent_id),
    count: Number(r.count),
  };
}

const byPosition = (a: Row, b: Row) => Number(a.link_position) - Number(b.link_position);

/** The organizers and terms of each event, in the order of `eventIds`. */
export async function linksOfEvents(
  q: Queryable,
  eventIds: readonly number[],
): Promise<EventLinks[]> {
  if (eventIds.length === 0) return [];
  const rows = (await LINKS.run(q, [...eventIds, ...eventIds])).sort(byPosition);
  const found = new Map<number, EventLinks>();
  for (const row of rows) {
    const eventId = Number(row.link_event_id);
    let links = found.get(eventId);
    if (!links) found.set(eventId, (links = { organizers: [], terms: [] }));
    if (Number(row.link_kind) === ORGANIZER) links.organizers.push(organizerOf(row));
    else links.terms.push(termOf(row));
  }
  return eventIds.map((id) => found.get(id) ?? { organizers: [], terms: [] });
}

const TERMS = new HotRead((q, eventIds) =>
  q('event_terms')
    .join('terms', 'terms.id', 'event_terms.term_id')
    .select('terms.*', 'event_terms.event_id as link_event_id')
    .whereIn('event_terms.event_id', eventIds)
    .orderBy([{ column: 'event_terms.event_id' }, { column: 'event_terms.position' }]),
);

/** Terms (categories and tags) of each event, joined in one query, in link order. */
export async function linkedTerms(
  q: Queryable,
  eventIds: readonly number[],
): Promise<Linked<TermRow>[]> {
  if (eventIds.length === 0) return [];
  return normalizeRows<Linked<TermRow>>(await TERMS.run(q, eventIds));
}

/**
 * Replaces an event's organizers, keeping the given order. `fresh`: the event was inserted in
 * this transaction and has no links yet — skipping the DELETE also skips its gap locks, on which
 * concurrent creates deadlocked on MySQL (issue 6, W1).
 */
export async function setOrganizerLinks(
  q: Queryable,
  eventId: number,
  organizerIds: readonly number[],
  fresh = false,
): Promise<void> {
  if (!fresh) await q('event_organizers').where({ event_id: eventId }).delete();
  if (organizerIds.length === 0) return;
  await q('event_organizers').insert(
    organizerIds.map((organizer_id, position) => ({ event_id: eventId, organizer_id, position })),
  );
}

/**
 * Replaces an event's terms of one taxonomy, keeping the given order. Returns the ids dropped.
 * A brand-new event has none to replace: `addTermLinks` links it.
 */
export async function setTermLinks(
  q: Queryable,
  eventId: number,
  taxonomy: Taxonomy,
  termIds: readonly number[],
): Promise<number[]> {
  const current: { term_id: number; position: number }[] = await q('event_terms')
    .join('terms', 'terms.id', 'event_terms.term_id')
    .select('event_terms.term_id', 'event_terms.position')
    .where({ 'event_terms.event_id': eventId, 'terms.taxonomy': taxonomy });
  const dropped = current.map((r) => Number(r.term_id)).filter((id) => !termIds.includes(id));
  if (current.length) {
    await q('event_terms')
      .where({ event_id: eventId })
      .whereIn(
        'term_id',
        current.map((r) => r.term_id),
      )
      .delete();
  }
  await addTermLinks(q, eventId, [[taxonomy, termIds]]);
  return dropped;
}

/**
 * Inserts an event's links to these terms, every taxonomy in one statement: for a brand-new
 * event, all there is to do (no links to read or delete, nor their gap locks; see
 * `setOrganizerLinks`). Categories and tags share one position sequence per event; tags follow
 * categories.
 */
export async function addTermLinks(
  q: Queryable,
  eventId: number,
  byTaxonomy: readonly (readonly [Taxonomy, readonly number[]])[],
): Promise<void> {
  const rows = byTaxonomy.flatMap(([taxonomy, termIds]) =>
    termIds.map((term_id, i) => ({
      event_id: eventId,
      term_id,
      position: (taxonomy === 'tag' ? 1000 : 0) + i,
    })),
  );
  if (rows.length) await q('event_terms').insert(rows);
}
