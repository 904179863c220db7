import slugify from 'slugify';
import { firstFreeSlug, toSlug } from '../../src/lib/slug';

/** `toSlug` answers text already shaped like a slug without slugify: the answers must agree. */

function bySlugify(text: string): string {
  return slugify(text, { lower: true, strict: true, trim: true }).slice(0, 190).replace(/-+$/, '');
}

function* texts(count: number, seed: number): Generator<string> {
  const pieces = ['a', 'z', 'q', '0', '9', '-', '--', ' ', 'A', 'É', 'é', '&', '_', '.', 'ß', '€'];
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let j = next(12); j > 0; j--) text += pieces[next(pieces.length)];
    yield text;
  }
}

describe('toSlug', () => {
  it('agrees with slugify on slugs and on everything else', () => {
    const inputs = [
      ...texts(20_000, 7),
      'rock-concert-12',
      'x'.repeat(190),
      'x'.repeat(191),
      `${'ab-'.repeat(63)}c`,
      '-leading',
      'trailing-',
      'a--b',
    ];
    expect(inputs.filter((text) => toSlug(text) !== bySlugify(text))).toEqual([]);
  });

  it('numbers taken slugs', () => {
    expect(firstFreeSlug('gig', ['gig', 'gig-2'])).toBe('gig-3');
  });
});
