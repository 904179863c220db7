import slugify from 'slugify';
import { firstFreeSlug, toSlug } from '../../src/lib/slug';
import { seededTexts } from '../support/seeded-texts';

/** `toSlug` answers text already shaped like a slug without slugify: the answers must agree. */

function bySlugify(text: string): string {
  return slugify(text, { lower: true, strict: true, trim: true }).slice(0, 190).replace(/-+$/, '');
}

const PIECES = ['a', 'z', 'q', '0', '9', '-', '--', ' ', 'A', 'É', 'é', '&', '_', '.', 'ß', '€'];

function texts(count: number, seed: number): Generator<string> {
  return seededTexts(PIECES, 12, count, seed);
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
