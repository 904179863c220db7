import type { Knex } from 'knex';
import { normalizeRows, type Queryable, type Taxonomy, type TermRow } from '../../db';
import { likeEscape } from './terms';

/** One page of a term list: the filters and ordering of `/categories` and `/tags`. */

export type TermOrderColumn = 'id' | 'name' | 'slug' | 'description' | 'count';

export interface TermFilter {
  taxonomy: Taxonomy;
  /** Name or slug contains this text, case-insensitively. */
  search?: string;
  include?: readonly number[];
  exclude?: readonly number[];
  hideEmpty: boolean;
  /** Only terms linked to this event. */
  eventId?: number;
  slug?: string;
  /** Direct children of this term; `null` means top level; `undefined` means any. */
  parentId?: number | null;
}

export interface TermOrder {
  orderby: TermOrderColumn;
  direction: 'asc' | 'desc';
}

export function filtered(q: Queryable, f: TermFilter): Knex.QueryBuilder {
  const query = q('terms').where('terms.taxonomy', f.taxonomy);
  if (f.search !== undefined) {
    const pattern = `%${likeEscape(f.search.toLowerCase())}%`;
    query.where((w) =>
      w
        .whereRaw("LOWER(terms.name) LIKE ? ESCAPE '!'", [pattern])
        .orWhereRaw("LOWER(terms.slug) LIKE ? ESCAPE '!'", [pattern]),
    );
  }
  if (f.include?.length) query.whereIn('terms.id', f.include);
  if (f.exclude?.length) query.whereNotIn('terms.id', f.exclude);
  if (f.hideEmpty) query.where('terms.count', '>', 0);
  if (f.eventId !== undefined) {
    query.whereIn('terms.id', q('event_terms').select('term_id').where('event_id', f.eventId));
  }
  if (f.slug !== undefined) query.where('terms.slug', f.slug);
  if (f.parentId === null) query.whereNull('terms.parent_id');
  else if (f.parentId !== undefined) query.where('terms.parent_id', f.parentId);
  return query;
}

/** Text columns sort case-insensitively (as the reference does), then by id for a stable order. */
function orderSql(order: TermOrder): string {
  const dir = order.direction === 'desc' ? 'desc' : 'asc';
  const column = `terms.${order.orderby}`;
  if (order.orderby === 'id') return `terms.id ${dir}`;
  if (order.orderby === 'count') return `${column} ${dir}, terms.id ${dir}`;
  return `LOWER(${column}) ${dir}, ${column} ${dir}, terms.id ${dir}`;
}

export interface TermPage {
  rows: TermRow[];
  total: number;
}

/** The total and one page: two queries whatever the page size. */
export async function listTermRows(
  q: Queryable,
  filter: TermFilter,
  order: TermOrder,
  limit: number,
  offset: number,
): Promise<TermPage> {
  const counted = await filtered(q, filter).count({ n: '*' }).first();
  const total = Number((counted as { n?: number | string } | undefined)?.n ?? 0);
  if (total === 0 || offset >= total) return { rows: [], total };
  const rows = await filtered(q, filter)
    .select('terms.*')
    .orderByRaw(orderSql(order))
    .limit(limit)
    .offset(offset);
  return { rows: normalizeRows<TermRow>(rows), total };
}
