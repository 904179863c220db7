import slugify from 'slugify';

/** Lowercase, ASCII-folded, hyphenated; empty when nothing usable remains. */
export function toSlug(text: string): string {
  return slugify(text, { lower: true, strict: true, trim: true }).slice(0, 190).replace(/-+$/, '');
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
