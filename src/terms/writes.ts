import { assertCanManageTerms } from '../users/permissions';
import { refreshLoaders, type AppContext } from '../context';
import { invalid, MissingParamError, notFound } from '../lib/errors';
import { sanitizeRichText } from '../lib/html';
import type { Queryable } from '../db/queryable';
import type { Taxonomy, TermRow } from '../db/rows';
import {
  deleteTermRow,
  findTermById,
  findTermOf,
  insertTerm,
  termNameTaken,
  updateTermRow,
  type TermValues,
} from './store/terms';
import { has, maxBytes, TEXT_BYTES_MAX } from '../posts/fields';
import { transact, type NameLock } from '../db/retry';
import { uniqueTermSlug } from './terms';

/**
 * Create, update and delete of categories and tags. Parameter checks come first (bad input is a
 * 400 even for callers who may not write, like the reference), then the permission, then the
 * rules that depend on other terms (duplicate names); all inside one transaction.
 */

/** The fields of a `CategoryInput` / `TagInput`; absent keys are left unchanged on update. */
export interface TermInput {
  name?: string | null;
  description?: string | null;
  slug?: string | null;
  parent?: number | null;
}

const NAME_MAX = 200;

function checkName(value: string | null | undefined): string {
  const name = (value ?? '').trim();
  if (name === '') throw invalid('name', 'must be a non-empty string');
  if (name.length > NAME_MAX) throw invalid('name', `must be at most ${NAME_MAX} characters`);
  return name;
}

/** Sanitised HTML that fits its TEXT column. */
function termDescription(value: string | null | undefined): string {
  return maxBytes('description', sanitizeRichText(value ?? ''), TEXT_BYTES_MAX);
}

/** A sent slug must be non-empty (the reference rejects `""`); null means "generate". */
function checkSlug(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.trim() === '') throw invalid('slug', 'must be a non-empty string');
  return value;
}

/** Term writes need editor or above: 401 anonymous, 403 other roles. */
function authorize(ctx: AppContext): void {
  assertCanManageTerms(ctx);
}

/**
 * The parent to store: null/0 is top level; otherwise an existing category that is neither the
 * term itself nor one of its descendants (that would cut the subtree off the tree).
 */
async function checkParent(
  q: Queryable,
  taxonomy: Taxonomy,
  parent: number | null | undefined,
  selfId: number | null,
): Promise<number | null> {
  if (parent === null || parent === undefined || parent === 0) return null;
  if (taxonomy !== 'category') throw invalid('parent', 'tags are not hierarchical');
  if (parent < 0 || !(await findTermOf(q, 'category', parent)))
    throw invalid('parent', 'must be the id of an existing category, or 0 for top level');
  const seen = new Set<number>();
  for (let id: number | null = parent; id !== null && !seen.has(id);) {
    if (id === selfId)
      throw invalid('parent', 'cannot be the category itself or one of its descendants');
    seen.add(id);
    id = (await findTermById(q, id))?.parent_id ?? null;
  }
  return parent;
}

async function checkNameFree(
  q: Queryable,
  taxonomy: Taxonomy,
  name: string,
  parentId: number | null,
  exceptId?: number,
): Promise<void> {
  if (await termNameTaken(q, taxonomy, name, parentId, exceptId))
    throw invalid('name', 'a term with this name already exists');
}

/** A new or renamed term's name is locked first, so the duplicate-name check sees every commit. */
function nameLock(taxonomy: Taxonomy, name: string | undefined): NameLock[] {
  return name === undefined ? [] : [{ scope: `terms:${taxonomy}`, name }];
}

async function reload(q: Queryable, id: number): Promise<TermRow> {
  const row = await findTermById(q, id);
  if (!row) throw new Error(`term ${id} vanished inside its own transaction`);
  return row;
}

export async function createTerm(
  ctx: AppContext,
  taxonomy: Taxonomy,
  input: TermInput,
): Promise<TermRow> {
  if (input.name === null || input.name === undefined) throw new MissingParamError(['name']);
  const name = checkName(input.name);
  // The reference rejects a present-but-empty description on create.
  if (input.description === '') throw invalid('description', 'must be a non-empty string');
  const description = termDescription(input.description);
  const slug = checkSlug(input.slug);
  const row = await transact(ctx.db, { names: nameLock(taxonomy, name) }, async (trx) => {
    const parentId = await checkParent(trx, taxonomy, input.parent, null);
    authorize(ctx);
    await checkNameFree(trx, taxonomy, name, parentId);
    const id = await insertTerm(trx, {
      taxonomy,
      name,
      slug: await uniqueTermSlug(trx, taxonomy, slug, name),
      description,
      parent_id: parentId,
    });
    return reload(trx, id);
  });
  refreshLoaders(ctx);
  return row;
}

/** Partial update: only fields present in `input` change; `description` null or `""` clears. */
export async function updateTerm(
  ctx: AppContext,
  taxonomy: Taxonomy,
  id: number,
  input: TermInput,
): Promise<TermRow> {
  const name = has(input, 'name') ? checkName(input.name) : undefined;
  const slug = has(input, 'slug') ? checkSlug(input.slug) : undefined;
  const row = await transact(ctx.db, { names: nameLock(taxonomy, name) }, async (trx) => {
    const current = await findTermOf(trx, taxonomy, id, true);
    if (!current) throw notFound(taxonomy, id);
    const parentId = has(input, 'parent')
      ? await checkParent(trx, taxonomy, input.parent, id)
      : current.parent_id;
    authorize(ctx);
    const values: TermValues = {};
    if (name !== undefined) values.name = name;
    if (has(input, 'description')) values.description = termDescription(input.description);
    if (has(input, 'parent')) values.parent_id = parentId;
    if (name !== undefined || has(input, 'parent'))
      await checkNameFree(trx, taxonomy, name ?? current.name, parentId, id);
    // An explicit null slug regenerates it from the (new) name; an absent one keeps it.
    if (slug !== undefined)
      values.slug = await uniqueTermSlug(trx, taxonomy, slug, name ?? current.name, id);
    await updateTermRow(trx, id, values);
    return reload(trx, id);
  });
  refreshLoaders(ctx);
  return row;
}

/** Permanent deletion; answers the term as it was, count included. */
export async function deleteTerm(
  ctx: AppContext,
  taxonomy: Taxonomy,
  id: number,
): Promise<TermRow> {
  const row = await transact(ctx.db, async (trx) => {
    const current = await findTermOf(trx, taxonomy, id, true);
    if (!current) throw notFound(taxonomy, id);
    authorize(ctx);
    await deleteTermRow(trx, id);
    return current;
  });
  refreshLoaders(ctx);
  return row;
}
