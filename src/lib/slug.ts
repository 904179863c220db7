import slugify from 'slugify';

const MAX_LENGTH = 190;
/** What `toSlug` answers unchanged (imports send slugs made by another site: ~10 µs saved). */
const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Lowercase, ASCII-folded, hyphenated; empty when nothing usable remains. */
export function toSlug(text: string): string {
  if (text.length <= MAX_LENGTH && SLUG_SHAPE.test(text)) return text;
  return slugify(text, { lower: true, strict: true, trim: true })
    .slice(0, MAX_LENGTH)
    .replace(/-+$/, '');
}

/** `base`, or `base-N` with the smallest N ≥ 2 not in `taken`. */
export function firstFreeSlug(base: string, taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
