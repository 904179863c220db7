import type { AppContext } from '../context';
import { addTermLinks, linkedTerms, setOrganizerLinks, setTermLinks } from './store/links';
import type { OrganizerRow, Queryable, Taxonomy, TermRow } from '../db';
import type { EventInput } from './input';
import { organizersForEvent, type EventOrganizerInput, type EventVenueInput } from '../places';
import { has } from '../posts';
import { lockTermRows, moveTermCounts, onlyTermIds, termIdsAmong, termsForEvent } from '../terms';

/** The links of event writes: organizers and terms, and the term counts they move. */

/** An input with nothing in it (`{}`, `{id: 0}`) means "no venue/organizer", like null. */
export function isBlank(input: EventVenueInput | EventOrganizerInput): boolean {
  return Object.values(input).every((v) => v === null || v === undefined || v === 0 || v === '');
}

/**
 * What an event counted for before a write: its terms, and whether it was published; `fresh`
 * when it was inserted by this write (it has no links to replace).
 */
export interface Counted {
  terms: number[];
  published: boolean;
  fresh: boolean;
}

/**
 * The rows of a write's links, when it knows them: the organizers in link order (null when the
 * write left them alone) and, for a new event, its terms in link order with their counts after
 * the write.
 */
export interface LinkRows {
  organizers: OrganizerRow[] | null;
  terms: TermRow[] | null;
}

const TAXONOMIES: [keyof EventInput & ('categories' | 'tags'), Taxonomy][] = [
  ['categories', 'category'],
  ['tags', 'tag'],
];

/**
 * Organizers, venue aside (it is a column), and categories/tags present in the input; then the
 * counts of the terms the event joined or left, or all of its terms when it was published or
 * unpublished.
 */
export async function writeLinks(
  ctx: AppContext,
  q: Queryable,
  eventId: number,
  input: EventInput,
  was: Counted,
  published: boolean,
): Promise<LinkRows> {
  let organizers: OrganizerRow[] | null = null;
  if (has(input, 'organizer')) {
    const items = (input.organizer ?? []).filter((item) => !isBlank(item));
    organizers = distinct(await organizersForEvent(ctx, q, items));
    const ids = organizers.map((o) => o.id);
    await setOrganizerLinks(q, eventId, ids, was.fresh);
  }
  const requested: [Taxonomy, string[]][] = TAXONOMIES.filter(([field]) => has(input, field)).map(
    ([field, taxonomy]) => [
      taxonomy,
      (input[field] ?? []).map((s) => s.trim()).filter((s) => s !== ''),
    ],
  );
  if (!requested.length && was.published === published) return { organizers, terms: null };
  // Every term whose count may change is locked before linking, so parallel writes on one term
  // queue instead of deadlocking on the links' foreign-key locks.
  let wanted: [Taxonomy, number[]][];
  let locked: TermRow[];
  if (requested.every(([, items]) => onlyTermIds(items))) {
    // Ids only (what API clients send): one locking read both checks and locks them.
    const ids = requested.flatMap(([, items]) => items.map(Number));
    locked = await lockTermRows(q, [...was.terms, ...ids]);
    wanted = requested.map(([taxonomy, items]) => [
      taxonomy,
      termIdsAmong(taxonomy, items, locked),
    ]);
  } else {
    wanted = [];
    for (const [taxonomy, items] of requested) {
      wanted.push([taxonomy, items.length ? await termsForEvent(ctx, q, taxonomy, items) : []]);
    }
    locked = await lockTermRows(q, [...was.terms, ...wanted.flatMap(([, ids]) => ids)]);
  }
  if (was.fresh) await addTermLinks(q, eventId, wanted);
  else for (const [taxonomy, ids] of wanted) await setTermLinks(q, eventId, taxonomy, ids);
  // A fresh event's links are exactly the ones just written: no need to read them back.
  const linked = wanted.flatMap(([, ids]) => ids);
  const now = !wanted.length ? was.terms : was.fresh ? linked : await termIdsOf(q, eventId);
  const before = was.published ? was.terms : [];
  const after = published ? now : [];
  await moveTermCounts(q, before, after);
  return { organizers, terms: was.fresh ? countedRows(locked, linked, before, after) : null };
}

/** Rows in order, each id once (the first occurrence keeps its place). */
function distinct<T extends { id: number }>(rows: readonly T[]): T[] {
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(row.id) && seen.add(row.id));
}

/**
 * The linked terms as `moveTermCounts` leaves them: the locked rows (nobody else changed them
 * since) with one more for the terms joined and one less (never below zero) for those left.
 * Null when one of them was not locked (deleted meanwhile): then they are read back.
 */
function countedRows(
  locked: readonly TermRow[],
  linked: readonly number[],
  before: readonly number[],
  after: readonly number[],
): TermRow[] | null {
  const byId = new Map(locked.map((row) => [row.id, row]));
  const rows: TermRow[] = [];
  for (const id of linked) {
    const row = byId.get(id);
    if (!row) return null;
    const delta = Number(after.includes(id)) - Number(before.includes(id));
    rows.push({ ...row, count: Math.max(0, row.count + delta) });
  }
  return rows;
}

export async function termIdsOf(q: Queryable, eventId: number): Promise<number[]> {
  return (await linkedTerms(q, [eventId])).map((t) => t.id);
}
