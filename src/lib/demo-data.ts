/**
 * Building blocks of the deterministic demo data (`seed:demo`) and the benchmark dataset: a
 * seeded PRNG (mulberry32: same seed, same data) and the date and cost draws both generators use.
 */

function mulberry32(seed: number): () => number {
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

const DAY_MS = 86_400_000;

/** The UTC date `offset` days from `today` (epoch ms), `YYYY-MM-DD`. */
export function day(today: number, offset: number): string {
  return new Date(today + offset * DAY_MS).toISOString().slice(0, 10);
}

/** `HH:MM:00` of a minute of the day. */
export function clock(minutes: number): string {
  const h = Math.floor(minutes / 60);
  return `${String(h).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
}

/** Cost texts of the shapes clients send: none, `$15`, `Free`, a range, a postfix symbol. */
export const COSTS: ((rng: Rng) => string)[] = [
  () => '',
  (rng) => `$${rng.int(5, 80)}`,
  () => 'Free',
  (rng) => `${rng.int(5, 20)}, ${rng.int(25, 60)}`,
  (rng) => `${rng.int(5, 50)}€`,
];
