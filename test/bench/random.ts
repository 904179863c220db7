/** A seeded PRNG (mulberry32) and the draws the dataset generator needs: same seed, same data. */

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  float(): number {
    return this.next();
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /**
   * Index in [0, n) favouring low indexes (power > 1): a few venues, organizers and tags are
   * popular and most are used now and then, as in real calendars.
   */
  skewed(n: number, power: number): number {
    return Math.min(n - 1, Math.floor(n * Math.pow(this.next(), power)));
  }

  /** `count` distinct indexes in [0, n), skewed like `skewed`. */
  distinct(n: number, count: number, power = 1): number[] {
    const out = new Set<number>();
    const wanted = Math.min(count, n);
    while (out.size < wanted) out.add(this.skewed(n, power));
    return [...out];
  }
}
