import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  type GraphQLInputType,
} from 'graphql';
import type { TestEnv } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';
import { DATES } from './arbitraries';

/** Records the fuzz suites start from, and plausible values for each parameter. */

export interface Fixtures {
  /** Ids and slugs of live records, by collection (`events`, `venues` …). */
  ids: Record<string, number[]>;
  slugs: Record<string, string[]>;
  /** Every fixture id, for parameters that reference records. */
  all: number[];
  terms: string[];
}

/** Base bodies that make a create valid, so the junk beside them reaches the services. */
export const BASES: Record<string, Record<string, unknown>> = {
  create_event: {
    title: 'Fuzzed event',
    start_date: '2027-01-01 10:00:00',
    end_date: '2027-01-01 12:00:00',
  },
  create_venue: { venue: 'Fuzzed venue' },
  create_organizer: { organizer: 'Fuzzed organizer' },
  create_category: { name: 'Fuzzed category' },
  create_tag: { name: 'Fuzzed tag' },
};

/** Valid-looking values of a parameter, by its name and GraphQL type. */
export function plausible(name: string, type: GraphQLInputType, fx: Fixtures): unknown[] {
  const named = getNamedType(type);
  const list = isListType(isNonNullType(type) ? type.ofType : type);
  if (isEnumType(named)) {
    const values = named.getValues().map((v) => v.name);
    return list ? [values.join(','), values.slice(0, 2)] : values;
  }
  if (/date|_before|_after/.test(name)) return [...DATES.slice(14, 20), '2027-01-01 10:00:00'];
  switch (named.name) {
    case 'Int':
      return list ? [fx.all.join(','), fx.all, []] : [...fx.all, 1, 0, -1, 50];
    case 'Float':
      return [0, 48.85, -73.9, '12.5', 1000];
    case 'Boolean':
      return [true, false, 'true', '0', 1];
    case 'String':
      if (list) return [fx.terms.join(','), fx.terms, 'new-term,another', ''];
      if (/website|image|url/.test(name)) return ['https://example.com/a.png', 'http://x'];
      if (name === 'timezone') return ['Europe/Paris', 'America/New_York', 'UTC'];
      if (name === 'slug') return Object.values(fx.slugs).flat();
      if (name === 'cost') return ['15', '10 - 20', '€5', 'Free'];
      return ['jazz', 'Fuzzed text', '<p>Hello <b>world</b></p>'];
    default:
      // Input objects (venue, organizer) and JSON (cost).
      return [
        fx.all[0],
        { id: fx.all[0] },
        { venue: 'Inline venue' },
        [{ organizer: 'Inline' }],
        '',
      ];
  }
}

export async function seedFixtures(env: TestEnv): Promise<Fixtures> {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };
  for (const role of ['administrator', 'editor', 'contributor', 'subscriber'] as const) {
    await env.user(role);
  }
  const venue = (await rest.post('/venues', { venue: 'Fuzz Hall', city: 'Springfield' }, admin))
    .body;
  const organizer = (await rest.post('/organizers', { organizer: 'Fuzz Org' }, admin)).body;
  const category = (await rest.post('/categories', { name: 'Concerts' }, admin)).body;
  const tag = (await rest.post('/tags', { name: 'jazz' }, admin)).body;
  const event = (
    await rest.post(
      '/events',
      {
        title: 'Fuzz Night',
        start_date: '2026-11-25 19:00:00',
        end_date: '2026-11-25 22:00:00',
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
        tags: [tag.id],
        cost: '15',
      },
      admin,
    )
  ).body;
  const secret = (
    await rest.post(
      '/events',
      { ...BASES.create_event, title: 'Secret', password: 'open-sesame', status: 'draft' },
      admin,
    )
  ).body;
  for (const made of [venue, organizer, category, tag, event, secret]) {
    if (typeof made?.id !== 'number')
      throw new Error(`fixture not created: ${JSON.stringify(made)}`);
  }
  return {
    ids: {
      events: [event.id, secret.id],
      venues: [venue.id],
      organizers: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    },
    slugs: {
      events: [event.slug, secret.slug],
      venues: [venue.slug],
      organizers: [organizer.slug],
    },
    all: [event.id, secret.id, venue.id, organizer.id, category.id, tag.id],
    terms: [category.slug, String(tag.id), 'jazz'],
  };
}
