import type { TestEnv } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * A small calendar seeded through the REST API, as the benchmark seeds one (bench/README.md):
 * categories, tags, venues and organizers first, then events linked to them. 25 events make
 * three pages of the default list (S8); they start on consecutive days from 2027-01-04 (S9).
 */
export interface PerfDataset {
  categories: number[];
  tags: number[];
  venues: number[];
  organizers: number[];
  events: { id: number; slug: string }[];
}

const admin = { as: 'administrator' as const };

export const EVENT_COUNT = 25;

export async function seedPerfDataset(env: TestEnv): Promise<PerfDataset> {
  const rest = new RestClient(env);
  const create = async (path: string, body: Record<string, unknown>) => {
    const response = await rest.post(path, body, admin);
    if (response.status !== 201)
      throw new Error(`POST ${path}: ${response.status} ${response.text}`);
    return response.body as { id: number; slug: string };
  };
  const ids = async (path: string, bodies: Record<string, unknown>[]) => {
    const out: number[] = [];
    for (const body of bodies) out.push((await create(path, body)).id);
    return out;
  };
  const categories = await ids('/categories', [{ name: 'Concerts' }, { name: 'Talks' }]);
  const tags = await ids('/tags', [{ name: 'free' }, { name: 'outdoor' }]);
  const venues = await ids('/venues', [{ venue: 'Riverside Hall' }, { venue: 'Civic Arena' }]);
  const organizers = await ids('/organizers', [
    { organizer: 'Harbor Society' },
    { organizer: 'Lantern Club' },
  ]);
  const events: { id: number; slug: string }[] = [];
  for (let i = 0; i < EVENT_COUNT; i++) {
    const day = String(4 + i).padStart(2, '0');
    const topic = i % 5 === 0 ? 'Jazz' : 'Yoga';
    events.push(
      await create('/events', {
        title: `${topic} Night ${i + 1}`,
        description: `Join us for a ${topic.toLowerCase()} night.`,
        start_date: `2027-01-${day} 19:00:00`,
        end_date: `2027-01-${day} 21:00:00`,
        cost: i % 2 ? 'Free' : '10',
        venue: venues[i % 2],
        organizer: i % 3 ? [organizers[0]] : organizers,
        categories: [categories[i % 2]],
        tags: i % 4 ? [tags[0]] : tags,
      }),
    );
  }
  return { categories, tags, venues, organizers, events };
}

/** The benchmark's read scenarios (bench/shared/load.mjs), as paths below the namespace. */
export function scenarioPaths(data: PerfDataset): Record<string, string> {
  return {
    S1: '/events',
    S2: '/events?per_page=50',
    S3: `/events?categories=${data.categories[0]}&per_page=10`,
    S4: `/events/${data.events[3]!.id}`,
    S5: `/events/by-slug/${encodeURIComponent(data.events[3]!.slug)}`,
    S6: '/venues?per_page=10',
    S7: '/events?search=jazz',
    S8: '/events?page=2',
    S9: '/events?start_date=2027-01-11&end_date=2027-01-17',
  };
}
