import type { Knex } from 'knex';
import type { EditScope } from '../../users';

/** The visibility and permission rules of `src/posts/visibility.ts` and `src/users`, as SQL. */

/**
 * Keeps the rows of `table` inside `scope` (`editScope`): their author's own, in the scope's
 * statuses. `all` adds nothing and `none` matches nothing, so callers test those first when the
 * clause sits inside an OR.
 */
export function whereEditable(query: Knex.QueryBuilder, table: string, scope: EditScope): void {
  if (scope.kind === 'all') return;
  if (scope.kind === 'none') {
    query.whereRaw('1 = 0');
    return;
  }
  query.where(`${table}.author_id`, scope.authorId);
  if (scope.statuses) query.whereIn(`${table}.status`, [...scope.statuses]);
}

/**
 * Rows whose password-protected text the caller may read: rows without a password, and rows
 * the caller may edit (`readers`, as `isRedacted` decides for a row). Nothing for `all`.
 */
export function whereTextReadable(
  query: Knex.QueryBuilder,
  table: string,
  readers: EditScope,
): void {
  if (readers.kind === 'all') return;
  query.where((readable) => {
    readable.where(`${table}.password`, '');
    if (readers.kind === 'own') readable.orWhere((own) => whereEditable(own, table, readers));
  });
}

/**
 * Records a create may reuse by name: published ones (left as they are) and those the caller
 * may edit (`scope`); everything for `all`.
 */
export function whereReusable(query: Knex.QueryBuilder, table: string, scope: EditScope): void {
  if (scope.kind === 'all') return;
  query.where((reusable) => {
    reusable.where(`${table}.status`, 'publish');
    if (scope.kind === 'own') reusable.orWhere((own) => whereEditable(own, table, scope));
  });
}
