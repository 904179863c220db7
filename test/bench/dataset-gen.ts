import { clock, COSTS, day, Rng } from '../../src/lib/demo-data';
import { toSlug } from '../../src/lib/slug';
import type { BulkEventRecord } from '../../src/transfer/bulk/import';
import type {
  BulkOrganizerRecord,
  BulkTermRecord,
  BulkVenueRecord,
} from '../../src/transfer/bulk/records';
import { ADJECTIVES, CITIES, FORMATS, GENRES, VENUE_KINDS, WORDS, type City } from './words';

/**
 * The benchmark dataset, generated deterministically from a seed and the day it is built (dates
 * are spread around that day so the default window always holds a realistic share): venues ≈
 * events/20, organizers ≈ events/25, 20 categories in a two-level tree, 100 tags. Events are
 * generated lazily, so a million of them stream into the bulk import.
 */

/** Bump when the generated data changes: datasets of another version are rebuilt. */
export const GENERATOR_VERSION = 1;
/** The S7 search word: one genre of twenty in titles, so ~5% of events match. */
export const SEARCH_WORD = 'jazz';

export interface Plan {
  events: number;
  venues: number;
  organizers: number;
}

export function planFor(events: number): Plan {
  return {
    events,
    venues: Math.max(1, Math.round(events / 20)),
    organizers: Math.max(1, Math.round(events / 25)),
  };
}

const TREE: [string, string[]][] = [
  ['Music', ['Concerts', 'Festivals', 'Open Mic']],
  ['Arts', ['Theatre', 'Dance', 'Exhibitions']],
  ['Community', ['Markets', 'Volunteering', 'Meetups']],
  ['Sports', ['Running', 'Cycling', 'Yoga']],
  ['Learning', ['Workshops', 'Talks', 'Courses']],
];

export function categoryRoots(): BulkTermRecord[] {
  return TREE.map(([name]) => ({ name, description: `${name} events` }));
}

/** Children of each root, given the root ids in `categoryRoots()` order. */
export function categoryChildren(rootIds: readonly number[]): BulkTermRecord[] {
  return TREE.flatMap(([, children], i) =>
    children.map((name) => ({ name, parent_id: rootIds[i]! })),
  );
}

export function tagRecords(): BulkTermRecord[] {
  const kinds = ['', ' Friendly', ' Special', ' Weekly'];
  return kinds.flatMap((kind) => WORDS.slice(0, 25).map((w) => ({ name: `${cap(w)}${kind}` })));
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function sentence(rng: Rng, min: number, max: number): string {
  const words = Array.from({ length: rng.int(min, max) }, () => rng.pick(WORDS));
  return `${cap(words.join(' '))}.`;
}

export interface GeneratedVenue extends BulkVenueRecord {
  zone: string;
}

export function venueRecords(plan: Plan, seed: number): GeneratedVenue[] {
  const rng = new Rng(seed ^ 0x5eed01);
  return Array.from({ length: plan.venues }, (_, i) => {
    const c: City = rng.pick(CITIES);
    const geo = rng.chance(0.8);
    const jitter = () => Math.round((rng.float() - 0.5) * 0.2 * 1e6) / 1e6;
    return {
      venue: `${rng.pick(ADJECTIVES)} ${rng.pick(VENUE_KINDS)} ${i + 1}`,
      description: rng.chance(0.5) ? `<p>${sentence(rng, 8, 16)}</p>` : '',
      address: `${rng.int(1, 999)} ${rng.pick(WORDS)} street`,
      city: c.city,
      country: c.country,
      state: c.state ?? '',
      province: c.province ?? '',
      zip: String(rng.int(10000, 99999)),
      phone: `+1 555 ${rng.int(1000, 9999)}`,
      website: rng.chance(0.5) ? `https://venues.example.com/${i + 1}` : '',
      geo_lat: geo ? Math.round((c.lat + jitter()) * 1e6) / 1e6 : null,
      geo_lng: geo ? Math.round((c.lng + jitter()) * 1e6) / 1e6 : null,
      zone: c.zone,
    };
  });
}

export function organizerRecords(plan: Plan, seed: number): BulkOrganizerRecord[] {
  const rng = new Rng(seed ^ 0x5eed02);
  return Array.from({ length: plan.organizers }, (_, i) => ({
    organizer: `${cap(rng.pick(WORDS))} ${rng.pick(['Collective', 'Society', 'Club', 'Crew'])} ${i + 1}`,
    description: rng.chance(0.4) ? `<p>${sentence(rng, 6, 12)}</p>` : '',
    phone: rng.chance(0.7) ? `+1 555 ${rng.int(1000, 9999)}` : '',
    email: rng.chance(0.8) ? `contact${i + 1}@organizers.example.org` : '',
    website: rng.chance(0.5) ? `https://organizers.example.org/${i + 1}` : '',
  }));
}

/** Ids the events link to, in the generator's order. */
export interface Refs {
  venues: readonly GeneratedVenue[];
  venueIds: readonly number[];
  organizerIds: readonly number[];
  categoryIds: readonly number[];
  tagIds: readonly number[];
}

/** Index of a representative event for the single-event scenarios, set while generating. */
export interface Sample {
  index: number;
  slug: string;
  venueId: number;
  organizerIds: number[];
}

const COST_WEIGHTS = [0.35, 0.6, 0.75, 0.87, 1];

/** Start/end wall clocks: timed (1–4 h, 10% over several days) or all-day (12%). */
function schedule(
  rng: Rng,
  today: number,
): Pick<BulkEventRecord, 'start_date' | 'end_date' | 'all_day'> {
  const offset = rng.int(-365, 729);
  if (rng.chance(0.12)) {
    return {
      all_day: true,
      start_date: `${day(today, offset)} 00:00:00`,
      end_date: `${day(today, offset + rng.int(0, 2))} 23:59:59`,
    };
  }
  const start = rng.int(8 * 4, 21 * 4) * 15;
  const end = start + (rng.chance(0.1) ? rng.int(1, 4) * 1440 : rng.int(4, 16) * 15);
  return {
    all_day: false,
    start_date: `${day(today, offset)} ${clock(start)}`,
    end_date: `${day(today, offset + Math.floor(end / 1440))} ${clock(end % 1440)}`,
  };
}

export function* eventRecords(
  plan: Plan,
  refs: Refs,
  seed: number,
  builtOn: Date,
  sample: { value: Sample | null },
): Generator<BulkEventRecord> {
  const rng = new Rng(seed ^ 0x5eed03);
  const today = Date.UTC(builtOn.getUTCFullYear(), builtOn.getUTCMonth(), builtOn.getUTCDate());
  for (let i = 0; i < plan.events; i++) {
    const title = `${rng.pick(ADJECTIVES)} ${rng.pick(GENRES)} ${rng.pick(FORMATS)}`;
    const v = rng.chance(0.9) ? rng.skewed(refs.venueIds.length, 1.5) : null;
    const r = rng.float();
    const status = r < 0.94 ? 'publish' : r < 0.97 ? 'draft' : r < 0.99 ? 'pending' : 'private';
    const costDraw = rng.float();
    const record: BulkEventRecord = {
      title,
      slug: `${toSlug(title)}-${i + 1}`,
      description: `<p>${sentence(rng, 10, 20)}</p>${rng.chance(0.3) ? `<p>${sentence(rng, 6, 12)}</p>` : ''}`,
      excerpt: rng.chance(0.4) ? sentence(rng, 5, 10) : '',
      status,
      ...schedule(rng, today),
      timezone: v !== null && rng.chance(0.85) ? refs.venues[v]!.zone : 'UTC',
      cost: COSTS[COST_WEIGHTS.findIndex((w) => costDraw < w)]!(rng),
      website: rng.chance(0.3) ? `https://events.example.com/${i + 1}` : '',
      show_map: v !== null && rng.chance(0.6),
      show_map_link: v !== null && rng.chance(0.6),
      hide_from_listings: rng.chance(0.01),
      sticky: rng.chance(0.02),
      featured: rng.chance(0.08),
      venue_id: v === null ? null : refs.venueIds[v]!,
      organizer_ids: rng
        .distinct(refs.organizerIds.length, rng.int(1, 3), 1.5)
        .map((k) => refs.organizerIds[k]!),
      category_ids: rng
        .distinct(refs.categoryIds.length, rng.int(1, 3))
        .map((k) => refs.categoryIds[k]!),
      tag_ids: rng.distinct(refs.tagIds.length, rng.int(0, 4), 2).map((k) => refs.tagIds[k]!),
    };
    if (!sample.value && i >= plan.events / 2 && isRepresentative(record)) {
      sample.value = {
        index: i,
        slug: record.slug!,
        venueId: record.venue_id!,
        organizerIds: [...record.organizer_ids!],
      };
    }
    yield record;
  }
}

/** A published, listed event with a venue, several organizers, terms and a cost. */
function isRepresentative(r: BulkEventRecord): boolean {
  return (
    r.status === 'publish' &&
    !r.hide_from_listings &&
    r.venue_id !== null &&
    (r.organizer_ids?.length ?? 0) >= 2 &&
    (r.category_ids?.length ?? 0) >= 1 &&
    (r.tag_ids?.length ?? 0) >= 1 &&
    r.cost !== ''
  );
}
