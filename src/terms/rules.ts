import { invalid, sanitizeRichText, toSlug } from '../lib';
import type { Taxonomy } from '../db';
import { TEXT_BYTES_MAX, maxBytes } from '../posts';

/**
 * The rule set of categories and tags: limits as named constants and every field check that
 * needs no database. `create_category`, terms created by name in event writes, the bulk path
 * and imports all use these.
 */

/** `terms.name` is VARCHAR(200); counted in UTF-16 units, as single writes always did. */
export const TERM_NAME_MAX = 200;
export const TERM_DESCRIPTION_BYTES_MAX = TEXT_BYTES_MAX;

/** The event field that carries terms of `taxonomy`. */
export function termField(taxonomy: Taxonomy): 'categories' | 'tags' {
  return taxonomy === 'category' ? 'categories' : 'tags';
}

/**
 * The rules of a term write's fields (docs/contract.md "Terms"), on create and update alike, as
 * the reference checks them: a field that is sent must not be empty. Absent fields are not
 * checked; `null` keeps its meaning of "clear" (description) or "generate" (slug).
 */
const NOT_EMPTY = 'must be a non-empty string';

/** The name of a term write: trimmed, non-empty, at most `TERM_NAME_MAX` long. */
export function checkTermName(value: string | null | undefined): string {
  const name = (value ?? '').trim();
  if (name === '') throw invalid('name', NOT_EMPTY);
  if (name.length > TERM_NAME_MAX)
    throw invalid('name', `must be at most ${TERM_NAME_MAX} characters`);
  return name;
}

/** A term an event write names that does not exist yet: its name becomes the new term's. */
export function checkNewTermName(taxonomy: Taxonomy, name: string): string {
  if (name.length > TERM_NAME_MAX) {
    throw invalid(
      termField(taxonomy),
      `a new ${taxonomy} name must be at most ${TERM_NAME_MAX} characters`,
    );
  }
  return name;
}

/** A sent description: `""` (or only spaces) is refused; null clears; HTML sanitised to fit. */
export function checkTermDescription(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (value.trim() === '') throw invalid('description', NOT_EMPTY);
  return maxBytes('description', sanitizeRichText(value), TERM_DESCRIPTION_BYTES_MAX);
}

/** A sent slug must be non-empty (the reference rejects `""`); null means "generate". */
export function checkTermSlug(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.trim() === '') throw invalid('slug', NOT_EMPTY);
  return value;
}

export const PARENT_RULE = 'must be the id of an existing category, or 0 for top level';

/**
 * A sent `parent`: 0 is the top level (null returned); an empty value (REST `parent=""`, which
 * arrives as null, or GraphQL null) and negative ids are refused, and so is any parent of a tag.
 * That the category exists and is no descendant of the term is `checkTermParent`'s part.
 */
export function checkTermParentValue(
  taxonomy: Taxonomy,
  parent: number | null | undefined,
): number | null {
  if (taxonomy !== 'category') throw invalid('parent', 'tags are not hierarchical');
  if (parent === null || parent === undefined || !Number.isInteger(parent) || parent < 0)
    throw invalid('parent', PARENT_RULE);
  return parent === 0 ? null : parent;
}

/**
 * The slug a term asks for before `-2`, `-3` … make it unique: the requested one, else one from
 * the name, else the taxonomy (names with no letters or digits).
 */
export function termSlugBase(requested: string | null, name: string, taxonomy: Taxonomy): string {
  const fromRequest = requested === null ? '' : toSlug(requested);
  if (requested !== null && fromRequest === '')
    throw invalid('slug', 'must contain letters or digits');
  return fromRequest || toSlug(name) || taxonomy;
}

/** Event writes name terms by id: every id must be a term of that taxonomy. */
export function assertKnownTermIds(
  taxonomy: Taxonomy,
  ids: readonly number[],
  known: ReadonlySet<number>,
): void {
  const field = termField(taxonomy);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw invalid(field, `unknown ${field} id(s): ${unknown.join(', ')}`);
}
