import type { Knex } from 'knex';
import { clientDialect } from './knex';
import type { Queryable } from './queryable';

/**
 * Comparisons that answer alike on SQLite and MySQL, whatever the MySQL tables' collation
 * (`utf8mb4_general_ci` on MariaDB, `utf8mb4_0900_ai_ci` on MySQL 8 …): a `_ci` collation
 * equates "e" and "é" and ignores trailing spaces, SQLite compares bytes. Both sides of a
 * comparison are computed by the same database and then compared byte for byte (`CAST … AS
 * BINARY` on MySQL, SQLite's default), so only what the comparison folds is ignored.
 */

/**
 * `column` equals `name` ignoring case only (Unicode: SQLite's `lower()` is JavaScript's, see
 * knex.ts): "élysée" is "Élysée", not "Elysee". The de-duplication of venues and organizers.
 */
export function whereSameName(
  q: Queryable,
  query: Knex.QueryBuilder,
  column: string,
  name: string,
): Knex.QueryBuilder {
  return clientDialect(q) === 'mysql'
    ? query.whereRaw('CAST(LOWER(??) AS BINARY) = CAST(LOWER(?) AS BINARY)', [column, name])
    : query.whereRaw('LOWER(??) = LOWER(?)', [column, name]);
}

/** `column` equals one of `names` ignoring case only (as `whereSameName`). */
export function whereNameIn(
  q: Queryable,
  query: Knex.QueryBuilder,
  column: string,
  names: readonly string[],
): Knex.QueryBuilder {
  if (names.length === 0) return query.whereRaw('1 = 0');
  const mysql = clientDialect(q) === 'mysql';
  const each = names.map(() => (mysql ? 'CAST(LOWER(?) AS BINARY)' : 'LOWER(?)')).join(', ');
  const left = mysql ? 'CAST(LOWER(??) AS BINARY)' : 'LOWER(??)';
  return query.whereRaw(`${left} IN (${each})`, [column, ...names]);
}

/** `column` equals `value` exactly: case, accents and spaces count. */
export function whereExactly(
  q: Queryable,
  query: Knex.QueryBuilder,
  column: string,
  value: string,
): Knex.QueryBuilder {
  return clientDialect(q) === 'mysql'
    ? query.whereRaw('CAST(?? AS BINARY) = CAST(? AS BINARY)', [column, value])
    : query.where(column, value);
}
