import { clock, COSTS, day, Rng, toSlug } from '../lib';
import type { ImportRecord } from '../transfer';

/**
 * The demo data of `seed:demo`: deterministic (a seeded PRNG; dates spread from a year before to
 * two years after the day it runs), generated lazily so a million events stream. The shape
 * follows the benchmark generator (test/bench/dataset-gen.ts; both draw with
 * src/lib/demo-data.ts): venues ≈ events/20, organizers ≈ events/25, 15 categories in a tree of
 * five roots, 40 tags, events with 0–1 venue, 1–3 organizers, 1–3 categories, 0–4 tags,
 * all-day and multi-day events in a dozen time zones, a few drafts.
 */

const ADJECTIVES = ['Summer', 'Winter', 'Grand', 'Little', 'Open', 'Secret', 'Family', 'Midnight'];
const GENRES = ['Jazz', 'Blues', 'Folk', 'Rock', 'Poetry', 'Comedy', 'Film', 'Wine', 'Science'];
const FORMATS = ['Night', 'Festival', 'Workshop', 'Meetup', 'Concert', 'Tour', 'Market', 'Talk'];
const VENUE_KINDS = ['Hall', 'Theatre', 'Park', 'Library', 'Club', 'Gallery'];
const WORDS = [
  'river',
  'garden',
  'light',
  'stone',
  'harbor',
  'maple',
  'sound',
  'market',
  'lantern',
  'bridge',
  'meadow',
  'canvas',
  'signal',
  'orchard',
  'summit',
  'echo',
  'timber',
  'violet',
  'copper',
  'delta',
];

interface City {
  city: string;
  country: string;
  state?: string;
  province?: string;
  zone: string;
  lat: number;
  lng: number;
}

const CITIES: City[] = [
  {
    city: 'New York',
    state: 'NY',
    country: 'United States',
    zone: 'America/New_York',
    lat: 40.71,
    lng: -74.01,
  },
  {
    city: 'Chicago',
    state: 'IL',
    country: 'United States',
    zone: 'America/Chicago',
    lat: 41.88,
    lng: -87.63,
  },
  {
    city: 'Denver',
    state: 'CO',
    country: 'United States',
    zone: 'America/Denver',
    lat: 39.74,
    lng: -104.99,
  },
  {
    city: 'Los Angeles',
    state: 'CA',
    country: 'United States',
    zone: 'America/Los_Angeles',
    lat: 34.05,
    lng: -118.24,
  },
  {
    city: 'Toronto',
    province: 'ON',
    country: 'Canada',
    zone: 'America/Toronto',
    lat: 43.65,
    lng: -79.38,
  },
  { city: 'London', country: 'United Kingdom', zone: 'Europe/London', lat: 51.51, lng: -0.13 },
  { city: 'Paris', country: 'France', zone: 'Europe/Paris', lat: 48.86, lng: 2.35 },
  { city: 'Berlin', country: 'Germany', zone: 'Europe/Berlin', lat: 52.52, lng: 13.4 },
  { city: 'Tokyo', country: 'Japan', zone: 'Asia/Tokyo', lat: 35.68, lng: 139.69 },
  {
    city: 'Sydney',
    province: 'NSW',
    country: 'Australia',
    zone: 'Australia/Sydney',
    lat: -33.87,
    lng: 151.21,
  },
  {
    city: 'São Paulo',
    state: 'SP',
    country: 'Brazil',
    zone: 'America/Sao_Paulo',
    lat: -23.55,
    lng: -46.63,
  },
  { city: 'Kolkata', country: 'India', zone: 'Asia/Kolkata', lat: 22.57, lng: 88.36 },
];

/** The category tree: roots and their children (created before the events, matched by name). */
export const DEMO_CATEGORIES: [string, string[]][] = [
  ['Music', ['Concerts', 'Festivals']],
  ['Arts', ['Theatre', 'Exhibitions']],
  ['Community', ['Markets', 'Meetups']],
  ['Sports', ['Running', 'Yoga']],
  ['Learning', ['Workshops', 'Talks']],
];

const CATEGORY_NAMES = DEMO_CATEGORIES.flatMap(([root, children]) => [root, ...children]);
const TAG_NAMES = ['', ' Friendly', ' Weekly'].flatMap((suffix) =>
  WORDS.slice(0, 14).map((w) => `${cap(w)}${suffix}`),
);

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function sentence(rng: Rng, min: number, max: number): string {
  const words = Array.from({ length: rng.int(min, max) }, () => rng.pick(WORDS));
  return `${cap(words.join(' '))}.`;
}

/** Venue `i` of a demo (the same for every event that picks it). */
function venue(seed: number, i: number): NonNullable<ImportRecord['venue']> & { zone: string } {
  const rng = new Rng((seed ^ 0x5eed01) + i * 7919);
  const c = rng.pick(CITIES);
  const jitter = () => Math.round((rng.float() - 0.5) * 0.2 * 1e6) / 1e6;
  const geo = rng.chance(0.8);
  return {
    venue: `${rng.pick(ADJECTIVES)} ${rng.pick(VENUE_KINDS)} ${i + 1}`,
    address: `${rng.int(1, 999)} ${cap(rng.pick(WORDS))} Street`,
    city: c.city,
    state: c.state ?? '',
    province: c.province ?? '',
    zip: String(rng.int(10000, 99999)),
    country: c.country,
    phone: `+1 555 ${rng.int(1000, 9999)}`,
    website: rng.chance(0.5) ? `https://venues.example.com/${i + 1}` : '',
    geo_lat: geo ? Math.round((c.lat + jitter()) * 1e6) / 1e6 : null,
    geo_lng: geo ? Math.round((c.lng + jitter()) * 1e6) / 1e6 : null,
    zone: c.zone,
  };
}

function organizer(i: number): NonNullable<ImportRecord['organizers']>[number] {
  const kinds = ['Collective', 'Society', 'Club', 'Crew'];
  return {
    organizer: `${cap(WORDS[i % WORDS.length]!)} ${kinds[i % kinds.length]} ${i + 1}`,
    email: i % 5 === 4 ? '' : `contact${i + 1}@organizers.example.org`,
    phone: `+1 555 ${String(1000 + (i % 9000))}`,
    website: i % 2 ? `https://organizers.example.org/${i + 1}` : '',
  };
}

/**
 * Unique slugs up front: titles repeat, and finding free `-N` suffixes one by one is slow. The
 * seed is part of the slug, since demos of two seeds share one database (an import refuses a
 * slug that names another event): `-s<seed>-<n>`, which no title's slug ends with. Seed 1, the
 * default, keeps the `-<n>` of databases it seeded before, so that a re-run still updates them.
 */
export function demoSlug(title: string, seed: number, n: number): string {
  return seed === 1 ? `${toSlug(title)}-${n}` : `${toSlug(title)}-s${seed}-${n}`;
}

/** The demo's events as import records with stable keys (`demo:<seed>:<n>`): a re-run updates. */
export function* demoRecords(count: number, seed: number, today: Date): Generator<ImportRecord> {
  const venues = Math.max(1, Math.round(count / 20));
  const organizers = Math.max(1, Math.round(count / 25));
  const rng = new Rng(seed ^ 0x5eed03);
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  for (let i = 0; i < count; i++) {
    const title = `${rng.pick(ADJECTIVES)} ${rng.pick(GENRES)} ${rng.pick(FORMATS)}`;
    const v = rng.chance(0.9) ? venue(seed, rng.skewed(venues, 1.5)) : null;
    const offset = rng.int(-365, 729);
    const r = rng.float();
    const status = r < 0.95 ? 'publish' : r < 0.98 ? 'draft' : 'pending';
    let dates: Pick<ImportRecord['fields'], 'start_date' | 'end_date' | 'all_day'>;
    if (rng.chance(0.12)) {
      dates = {
        all_day: true,
        start_date: `${day(midnight, offset)} 00:00:00`,
        end_date: `${day(midnight, offset + rng.int(0, 2))} 23:59:59`,
      };
    } else {
      const start = rng.int(8 * 4, 21 * 4) * 15;
      const end = start + (rng.chance(0.1) ? rng.int(1, 4) * 1440 : rng.int(4, 16) * 15);
      dates = {
        all_day: false,
        start_date: `${day(midnight, offset)} ${clock(start)}`,
        end_date: `${day(midnight, offset + Math.floor(end / 1440))} ${clock(end % 1440)}`,
      };
    }
    const { zone, ...place } = v ?? { zone: 'UTC' };
    yield {
      line: i + 1,
      key: `demo:${seed}:${i + 1}`,
      fields: {
        title,
        slug: demoSlug(title, seed, i + 1),
        ...dates,
        timezone: v && rng.chance(0.85) ? zone : 'UTC',
        description: `<p>${sentence(rng, 10, 20)}</p>`,
        excerpt: rng.chance(0.4) ? sentence(rng, 5, 10) : '',
        status,
        cost: rng.pick(COSTS)(rng),
        website: rng.chance(0.3) ? `https://events.example.com/${i + 1}` : '',
        show_map: v !== null && rng.chance(0.6),
        show_map_link: v !== null && rng.chance(0.6),
        hide_from_listings: rng.chance(0.01),
        sticky: rng.chance(0.02),
        featured: rng.chance(0.08),
      },
      venue: v ? (place as NonNullable<ImportRecord['venue']>) : null,
      organizers: rng.distinct(organizers, rng.int(1, 3), 1.5).map(organizer),
      categories: rng.distinct(CATEGORY_NAMES.length, rng.int(1, 3)).map((k) => CATEGORY_NAMES[k]!),
      tags: rng.distinct(TAG_NAMES.length, rng.int(0, 4), 2).map((k) => TAG_NAMES[k]!),
    };
  }
}
