import { assertCanManageTerms } from '../users';
import type { AppContext } from '../context';
import { invalid, MissingParamError, notFound } from '../lib';
import { transact, type NameLock, type Queryable, type Taxonomy, type TermRow } from '../db';
import {
  deleteTermRow,
  findTermById,
  findTermOf,
  insertTerm,
  termNameTaken,
  updateTermRow,
  type TermValues,
} from './store/terms';
import { has } from '../posts';
import { uniqueTermSlug } from './terms';
import {
  PARENT_RULE,
  checkTermDescription,
  checkTermName,
  checkTermParentValue,
  checkTermSlug,
} from './rules';

/**
 * Create, update and delete of categories and tags. Parameter checks come first (bad input is a
 * 400 even for callers who may not write, like the reference): the field rules of `rules.ts`
 * before the transaction opens, then the parent's existence; then the permission, then the
 * rules that depend on other terms (duplicate names); all inside one transaction.
 */

/** The fields of a `CategoryInput` / `TagInput`; absent keys are left unchanged on update. */
export interface TermInput {
  name?: string | null;
  description?: string | null;
  slug?: string | null;
  parent?: number | null;
}

/** Term writes need editor or above: 401 anonymous, 403 other roles. */
function authorize(ctx: AppContext): void {
  assertCanManageTerms(ctx);
}

/**
 * The parent to store: null/0 is top level (a write's empty `parent` was refused before, by
 * `checkTermParentValue`); otherwise an existing category that is neither the term itself nor
 * one of its descendants (that would cut the subtree off the tree).
 */
export async function checkTermParent(
  q: Queryable,
  taxonomy: Taxonomy,
  parent: number | null | undefined,
  selfId: number | null,
): Promise<number | null> {
  if (parent === null || parent === undefined || parent === 0) return null;
  if (taxonomy !== 'category') throw invalid('parent', 'tags are not hierarchical');
  if (parent < 0 || !(await findTermOf(q, 'category', parent)))
    throw invalid('parent', PARENT_RULE);
  const seen = new Set<number>();
  for (let id: number | null = parent; id !== null && !seen.has(id);) {
    if (id === selfId)
      throw invalid('parent', 'cannot be the category itself or one of its descendants');
    seen.add(id);
    id = (await findTermById(q, id))?.parent_id ?? null;
  }
  return parent;
}

export async function checkTermNameFree(
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
  const name = checkTermName(input.name);
  const description = checkTermDescription(input.description);
  const slug = checkTermSlug(input.slug);
  const parent = has(input, 'parent') ? checkTermParentValue(taxonomy, input.parent) : null;
  const row = await transact(ctx.db, { names: nameLock(taxonomy, name) }, async (trx) => {
    const parentId = await checkTermParent(trx, taxonomy, parent, null);
    authorize(ctx);
    await checkTermNameFree(trx, taxonomy, name, parentId);
    const id = await insertTerm(trx, {
      taxonomy,
      name,
      slug: await uniqueTermSlug(trx, taxonomy, slug, name),
      description,
      parent_id: parentId,
    });
    return reload(trx, id);
  });
  ctx.resetLoaders();
  return row;
}

/** Partial update: only fields present in `input` change; `description: null` clears it. */
export async function updateTerm(
  ctx: AppContext,
  taxonomy: Taxonomy,
  id: number,
  input: TermInput,
): Promise<TermRow> {
  const name = has(input, 'name') ? checkTermName(input.name) : undefined;
  const description = has(input, 'description')
    ? checkTermDescription(input.description)
    : undefined;
  const slug = has(input, 'slug') ? checkTermSlug(input.slug) : undefined;
  const parent = has(input, 'parent') ? checkTermParentValue(taxonomy, input.parent) : undefined;
  const row = await transact(ctx.db, { names: nameLock(taxonomy, name) }, async (trx) => {
    const current = await findTermOf(trx, taxonomy, id, true);
    if (!current) throw notFound(taxonomy, id);
    const parentId =
      parent !== undefined ? await checkTermParent(trx, taxonomy, parent, id) : current.parent_id;
    authorize(ctx);
    const values: TermValues = {};
    if (name !== undefined) values.name = name;
    if (description !== undefined) values.description = description;
    if (has(input, 'parent')) values.parent_id = parentId;
    if (name !== undefined || has(input, 'parent'))
      await checkTermNameFree(trx, taxonomy, name ?? current.name, parentId, id);
    // An explicit null slug regenerates it from the (new) name; an absent one keeps it.
    if (slug !== undefined)
      values.slug = await uniqueTermSlug(trx, taxonomy, slug, name ?? current.name, id);
    await updateTermRow(trx, id, values);
    return reload(trx, id);
  });
  ctx.resetLoaders();
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
  ctx.resetLoaders();
  return row;
}
