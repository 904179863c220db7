import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import {
  clientDialect,
  type Dialect,
  type PostTable,
  type Queryable,
  type Taxonomy,
} from '../../db';

/**
 * Multi-row writes for bulk imports. Every function runs inside the caller's transaction and
 * sends a bounded number of statements per call, whatever the number of rows.
 */

/**
 * Statement size limits: SQLite allows 32,766 bound variables per statement; MySQL has no small
 * limit (Knex interpolates client-side) but a 16 MiB default packet, which 16,000 values of this
 * schema's column sizes stay far below. Knex's own multi-row insert compiles, on SQLite, into a
 * compound SELECT capped at 500 terms; the VALUES list below has no such cap and costs SQLite
 * and Knex less per row (about 5 µs instead of 8–12 µs, measured), which matters at millions.
 */
const MAX_BINDINGS = 16_000;
const MAX_ROWS = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Inserts rows that all have the same keys as the first, as `INSERT … VALUES (…), (…)` in as
 * few statements as the limits allow.
 */
export async function insertRows(
  q: Queryable,
  table: string,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const [first] = rows;
  if (!first) return;
  const columns = Object.keys(first);
  await insertValues(
    q,
    table,
    columns,
    rows.map((row) => columns.map((c) => row[c])),
  );
}

/**
 * `insertRows` for rows given as lists of values in `columns` order (no object per row).
 * Identifiers go through Knex's `??` quoting; `undefined` is written as NULL. On MySQL the rows
 * are one binding, a list of lists, which mysql2 expands to `(…), (…)` as it escapes them (Knex
 * would otherwise visit each of thousands of placeholders first; mysql2 then again).
 */
export async function insertValues(
  q: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const head = `insert into ?? (${columns.map(() => '??').join(', ')}) values `;
  const perStatement = Math.max(1, Math.floor(MAX_BINDINGS / columns.length));
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const mysql = clientDialect(q) === 'mysql';
  for (const part of chunks(rows, perStatement)) {
    const bindings: unknown[] = [table, ...columns];
    if (mysql) {
      bindings.push(part.map((row) => (row.includes(undefined) ? row.map((v) => v ?? null) : row)));
      await q.raw(`${head}?`, bindings as Knex.RawBinding[]);
    } else {
      for (const row of part) for (const value of row) bindings.push(value ?? null);
      await q.raw(head + part.map(() => tuple).join(', '), bindings as Knex.RawBinding[]);
    }
  }
}

/**
 * Allocates `count` ids of the id space shared by events, venues, organizers and images.
 *
 * SQLite: a write transaction holds the database's single write lock from its first write to
 * its commit, so the AUTOINCREMENT rows of one statement get consecutive ids ending at the
 * statement's `lastInsertRowid`; the ids are computed, no read-back is needed.
 *
 * MySQL family: consecutive ids from one multi-row insert hold only for some
 * `innodb_autoinc_lock_mode`/`auto_increment_increment` settings (not on Galera, not promised
 * by TiDB or Vitess). So the rows are inserted under a random marker type, read back by
 * `id >= LAST_INSERT_ID() AND type = marker` (LAST_INSERT_ID is the first id of the statement;
 * the primary-key range keeps the read cheap), then given their real type. The marker is never
 * visible outside the transaction. post_ids rows carry no per-record data, so which record gets
 * which of the returned ids does not matter; they come back ascending.
 */
export async function allocatePostIds(
  q: Queryable,
  dialect: Dialect,
  type: string,
  count: number,
): Promise<number[]> {
  if (count <= 0) return [];
  if (dialect === 'sqlite') {
    const ids: number[] = [];
    for (const part of chunks(new Array<null>(count).fill(null), MAX_ROWS)) {
      const [last] = await q('post_ids').insert(part.map(() => ({ type })));
      if (typeof last !== 'number') throw new Error('post id allocation returned no id');
      for (let id = last - part.length + 1; id <= last; id++) ids.push(id);
    }
    return ids;
  }
  // `type` is VARCHAR(20): "bulk:" and 12 hex digits fit. No 500-row limit here (it is
  // SQLite's): one statement for a batch.
  const marker = `bulk:${randomBytes(6).toString('hex')}`;
  let lowest = Infinity;
  for (const part of chunks(new Array<null>(count).fill(null), MAX_BINDINGS)) {
    const [firstId] = await q('post_ids').insert(part.map(() => ({ type: marker })));
    if (typeof firstId !== 'number') throw new Error('post id allocation returned no id');
    lowest = Math.min(lowest, firstId);
  }
  const rows: { id: number }[] = await q('post_ids')
    .select('id')
    .where('id', '>=', lowest)
    .andWhere('type', marker)
    .orderBy('id');
  if (rows.length !== count) {
    throw new Error(`post id allocation read back ${rows.length} ids instead of ${count}`);
  }
  await q('post_ids').where('id', '>=', lowest).andWhere('type', marker).update({ type });
  return rows.map((r) => Number(r.id));
}

/** Which of `slugs` are already used in `table` (one indexed lookup per 1,000 slugs). */
export async function takenSlugs(
  q: Queryable,
  table: PostTable,
  slugs: readonly string[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of chunks([...new Set(slugs)], 1000)) {
    const rows: { slug: string }[] = await q(table).select('slug').whereIn('slug', part);
    for (const r of rows) taken.add(r.slug);
  }
  return taken;
}

/** Which of `slugs` are already used by terms of `taxonomy`. */
export async function takenTermSlugs(
  q: Queryable,
  taxonomy: Taxonomy,
  slugs: readonly string[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of chunks([...new Set(slugs)], 1000)) {
    const rows: { slug: string }[] = await q('terms')
      .select('slug')
      .where({ taxonomy })
      .whereIn('slug', part);
    for (const r of rows) taken.add(r.slug);
  }
  return taken;
}

/**
 * Ids of terms of `taxonomy` by slug. Terms have their own AUTO_INCREMENT id, and (taxonomy,
 * slug) is unique, so freshly inserted terms are found again by their slugs on every dialect.
 */
export async function termIdsBySlug(
  q: Queryable,
  taxonomy: Taxonomy,
  slugs: readonly string[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of chunks([...new Set(slugs)], 1000)) {
    const rows: { id: number; slug: string }[] = await q('terms')
      .select('id', 'slug')
      .where({ taxonomy })
      .whereIn('slug', part);
    for (const r of rows) ids.set(r.slug, Number(r.id));
  }
  return ids;
}

/** The taxonomy of each of `ids` that is a term (one lookup per 1,000 ids). */
export async function termTaxonomies(
  q: Queryable,
  ids: readonly number[],
): Promise<Map<number, Taxonomy>> {
  const found = new Map<number, Taxonomy>();
  for (const part of chunks([...new Set(ids)], 1000)) {
    const rows: { id: number; taxonomy: Taxonomy }[] = await q('terms')
      .select('id', 'taxonomy')
      .whereIn('id', part);
    for (const r of rows) found.set(Number(r.id), r.taxonomy);
  }
  return found;
}
