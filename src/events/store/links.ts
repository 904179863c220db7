import type { Knex } from 'knex';
import {
  HotRead,
  POST_COLUMNS,
  normalizeRows,
  rowReader,
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

/**
 * Where an event read selects the link columns beside its own (`event-reads.ts`): under this
 * prefix, so that none collides with an event column.
 */
export const LINK_PREFIX = 'link__';

/** The link columns of a union with other rows, as the other rows select them (all NULL). */
export function nullLinkColumns(q: Queryable): Knex.Raw[] {
  return [
    q.raw('NULL as link_event_id'),
    q.raw('NULL as link_position'),
    ...UNION_COLUMNS.map((c) => q.raw(`NULL as ${LINK_PREFIX}${c}`)),
  ];
}

/** Events whose links to read: their ids, or a sub-query selecting them. */
type EventIds = readonly (number | string)[] | Knex.QueryBuilder;

/**
 * The link rows of one link table: `kind`, the event, the position, `pad` NULL columns (what
 * the rows of a union select before their link columns) and the union's columns.
 */
function linkSelect(
  q: Queryable,
  links: string,
  table: string,
  foreignKey: string,
  own: readonly string[],
  kind: number,
  eventIds: EventIds,
  pad = 0,
): Knex.QueryBuilder {
  const columns = UNION_COLUMNS.map((c) =>
    own.includes(c) ? `${table}.${c}` : q.raw(`NULL as ${c}`),
  );
  return q(links)
    .join(table, `${table}.id`, `${links}.${foreignKey}`)
    .select(
      q.raw(`${kind} as link_kind`),
      ...Array.from({ length: pad }, () => q.raw('NULL')),
      `${links}.event_id as link_event_id`,
      `${links}.position as link_position`,
      ...columns,
    )
    .whereIn(`${links}.event_id`, eventIds as readonly (number | string)[]);
}

const ORGANIZER = 0;
const TERM = 1;

/**
 * The organizers' and the terms' link rows of these events, to UNION ALL with rows that select
 * `pad` columns between their kind and their link columns (`nullLinkColumns`).
 */
export function linkParts(
  q: Queryable,
  eventIds: EventIds,
  pad: number,
): [Knex.QueryBuilder, Knex.QueryBuilder] {
  return [
    linkSelect(
      q,
      'event_organizers',
      'organizers',
      'organizer_id',
      ORGANIZER_COLUMNS,
      ORGANIZER,
      eventIds,
      pad,
    ),
    linkSelect(q, 'event_terms', 'terms', 'term_id', TERM_COLUMNS, TERM, eventIds, pad),
  ];
}

/**
 * Organizers and terms of the events in one statement (a UNION ALL of both link tables, each
 * padding the other's columns with NULL): every event response reads both. The keys are the
 * event ids twice, once per half, as `HotRead` takes them.
 */
const LINKS = new HotRead((q, keys) => {
  const [organizers, terms] = linkParts(q, keys.slice(0, keys.length / 2), 0);
  return organizers.unionAll(terms);
});

type Row = Record<string, unknown>;

/**
 * Integer columns, read as numbers: MariaDB types a column of a union that is an integer in one
 * part and NULL in another as a decimal, which mysql2 answers as text
 * (test/events/event-links.test.ts compares with plain reads).
 */
export const INTEGER_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'author_id',
  'image_id',
  'venue_id',
  'parent_id',
  'count',
]);

/** Readers of link rows whose columns carry `prefix`, into rows of the plain reads' shape. */
function linkReaders(prefix: string): { organizer: Reader; term: Reader } {
  const fields = (columns: readonly string[]) => columns.map((c) => [c, `${prefix}${c}`] as const);
  return {
    organizer: rowReader(fields(ORGANIZER_COLUMNS), INTEGER_COLUMNS),
    term: rowReader(fields(TERM_COLUMNS), INTEGER_COLUMNS),
  };
}

type Reader = (raw: Row) => Row;

/** The readers of each prefix in use (two: none, and `LINK_PREFIX`). */
const readersByPrefix = new Map<string, ReturnType<typeof linkReaders>>();

const byPosition = (a: Row, b: Row) => Number(a.link_position) - Number(b.link_position);

/**
 * Link rows (`link_kind`, `link_event_id`, `link_position` and the link columns under
 * `prefix`) grouped by event, each list in link order.
 */
export function groupLinks(rows: Row[], prefix = ''): Map<number, EventLinks> {
  let read = readersByPrefix.get(prefix);
  if (read === undefined) readersByPrefix.set(prefix, (read = linkReaders(prefix)));
  const found = new Map<number, EventLinks>();
  for (const row of rows.sort(byPosition)) {
    const eventId = Number(row.link_event_id);
    let links = found.get(eventId);
    if (!links) found.set(eventId, (links = { organizers: [], terms: [] }));
    if (Number(row.link_kind) === ORGANIZER) {
      links.organizers.push(read.organizer(row) as unknown as OrganizerRow);
    } else links.terms.push(read.term(row) as unknown as TermRow);
  }
  return found;
}

/** The organizers and terms of each event, in the order of `eventIds`. */
export async function linksOfEvents(
  q: Queryable,
  eventIds: readonly number[],
): Promise<EventLinks[]> {
  if (eventIds.length === 0) return [];
  const found = groupLinks(await LINKS.run(q, [...eventIds, ...eventIds]));
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
