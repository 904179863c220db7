import { normalizeRow, normalizeRows, type Queryable } from './queryable';
import type { TermRow } from './rows';

export async function findTermsByIds(q: Queryable, ids: readonly number[]): Promise<TermRow[]> {
  if (ids.length === 0) return [];
  return normalizeRows<TermRow>(await q('terms').whereIn('id', ids));
}

export async function findTermById(q: Queryable, id: number): Promise<TermRow | undefined> {
  const row = await q('terms').where({ id }).first();
  return row ? normalizeRow<TermRow>(row) : undefined;
}
