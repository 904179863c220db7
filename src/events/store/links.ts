import {
  HotRead,
  normalizeRows,
  type OrganizerRow,
  type Queryable,
  type Taxonomy,
  type TermRow,
} from '../../db';

/** The ordered links between events and organizers / terms. */

/** A linked row with the event it belongs to (`link_event_id`). */
export type Linked<T> = T & { link_event_id: number };

/** The rows linked to each event through `links`, joined in one query, in link order. */
function linkedRead(links: string, table: string, foreignKey: string): HotRead {
  return new HotRead((q, eventIds) =>
    q(links)
      .join(table, `${table}.id`, `${links}.${foreignKey}`)
      .select(`${table}.*`, `${links}.event_id as link_event_id`)
      .whereIn(`${links}.event_id`, eventIds)
      .orderBy([{ column: `${links}.event_id` }, { column: `${links}.position` }]),
  );
}

const ORGANIZERS = linkedRead('event_organizers', 'organizers', 'organizer_id');
const TERMS = linkedRead('event_terms', 'terms', 'term_id');

/** Organizers of each event, joined in one query, in link order. */
export async function linkedOrganizers(
  q: Queryable,
  eventIds: readonly number[],
): Promise<Linked<OrganizerRow>[]> {
  if (eventIds.length === 0) return [];
  return normalizeRows<Linked<OrganizerRow>>(await ORGANIZERS.run(q, eventIds));
}

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
