import type { Knex } from 'knex';
import { clientDialect, type Queryable } from '../../db';
import type { KeyValue } from '../cursor';

/**
 * Keyset pages in SQL, for every table: the order, the key selected with each row, and the
 * "strictly past this key" condition — the row-value comparison `(k1, k2, id) > (v1, v2, v3)`
 * spelled as `k1 > v1 OR (k1 = v1 AND k2 > v2) OR …`, which both engines run (and mixed
 * directions need). NULL sorts before every value on both engines (ASC: first, DESC: last), and
 * the condition says the same. Text keys compare as bytes on MySQL (`CAST … AS BINARY`) as
 * SQLite does, so a `_ci` collation neither reorders nor equates them (see db/same-text.ts).
 */

export interface KeyColumn {
  /** SQL of the key over qualified columns: ours, never the caller's text. */
  sql: string;
  desc: boolean;
  /** Compared byte by byte on every engine. */
  text?: boolean;
  nullable?: boolean;
  /** Read back as a number (drivers may give strings). */
  numeric?: boolean;
}

const KEY = 'keyset__';

function expr(q: Queryable, c: KeyColumn): string {
  return c.text && clientDialect(q) === 'mysql' ? `CAST(${c.sql} AS BINARY)` : c.sql;
}

function param(q: Queryable, c: KeyColumn): string {
  return c.text && clientDialect(q) === 'mysql' ? 'CAST(? AS BINARY)' : '?';
}

/** Walking backwards (`last`/`before`) reads the reversed order. */
function descending(c: KeyColumn, backward: boolean): boolean {
  return c.desc !== backward;
}

/** ORDER BY the keys in walk order. */
export function orderByKeys(
  q: Queryable,
  query: Knex.QueryBuilder,
  keys: readonly KeyColumn[],
  backward: boolean,
): Knex.QueryBuilder {
  const parts = keys.map((c) => `${expr(q, c)} ${descending(c, backward) ? 'desc' : 'asc'}`);
  return query.orderByRaw(parts.join(', '));
}

/** Selects each key as it is stored (`keyset__0`, …): the cursor carries these values. */
export function selectKeys(
  q: Queryable,
  query: Knex.QueryBuilder,
  keys: readonly KeyColumn[],
): Knex.QueryBuilder {
  return query.select(keys.map((c, i) => q.raw(`${c.sql} as ${KEY}${i}`)));
}

function equal(q: Queryable, w: Knex.QueryBuilder, c: KeyColumn, v: KeyValue): void {
  if (v === null) w.whereRaw(`${c.sql} is null`);
  else w.whereRaw(`${expr(q, c)} = ${param(q, c)}`, [v]);
}

function past(q: Queryable, w: Knex.QueryBuilder, c: KeyColumn, v: KeyValue, back: boolean): void {
  if (!descending(c, back)) {
    if (v === null) w.whereRaw(`${c.sql} is not null`);
    else w.whereRaw(`${expr(q, c)} > ${param(q, c)}`, [v]);
    return;
  }
  if (v === null) w.whereRaw('1 = 0');
  else if (c.nullable) {
    w.where((o) =>
      o.whereRaw(`${expr(q, c)} < ${param(q, c)}`, [v]).orWhereRaw(`${c.sql} is null`),
    );
  } else w.whereRaw(`${expr(q, c)} < ${param(q, c)}`, [v]);
}

/**
 * Rows strictly past `key` in walk order. The first key also gets a plain range bound (implied
 * by the OR, but a range the planners seek in an index, as `events_list_index` for START).
 */
export function whereBeyond(
  q: Queryable,
  query: Knex.QueryBuilder,
  keys: readonly KeyColumn[],
  key: readonly KeyValue[],
  backward: boolean,
): Knex.QueryBuilder {
  const lead = keys[0]!;
  const from = key[0] ?? null;
  if (!lead.nullable && from !== null) {
    const op = descending(lead, backward) ? '<=' : '>=';
    query.whereRaw(`${expr(q, lead)} ${op} ${param(q, lead)}`, [from]);
  }
  return query.where((any) => {
    keys.forEach((c, i) => {
      any.orWhere((all) => {
        for (let j = 0; j < i; j++) equal(q, all, keys[j]!, key[j] ?? null);
        past(q, all, c, key[i] ?? null, backward);
      });
    });
  });
}

/** Splits the selected keys off each row (fresh row objects, without `keyset__…`). */
export function takeKeys(
  raws: readonly Record<string, unknown>[],
  keys: readonly KeyColumn[],
): { raw: Record<string, unknown>; key: KeyValue[] }[] {
  return raws.map((source) => {
    const raw: Record<string, unknown> = {};
    for (const name in source) if (!name.startsWith(KEY)) raw[name] = source[name];
    const key = keys.map((c, i) => {
      const v = source[`${KEY}${i}`];
      if (v === null || v === undefined) return null;
      return c.numeric ? Number(v) : (v as KeyValue);
    });
    return { raw, key };
  });
}
