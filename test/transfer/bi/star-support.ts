import type { TestEnv } from '../../support/harness';
import { createSample, type Sample } from '../import-support';

/** Shared pieces of the BI suites (docs/bi.md): a calendar with every status, and the views. */

/** The star relations of migration 20261121000013. */
export const STAR_VIEWS = [
  'fact_event',
  'dim_venue',
  'dim_organizer',
  'dim_term',
  'dim_date',
  'bridge_event_term',
  'bridge_event_organizer',
];

export const REPORT_VIEWS = ['report_events', 'report_venues', 'report_organizers', 'report_terms'];

export interface StarSample extends Sample {
  pending: number;
  privateEvent: number;
  trashed: number;
  /** Years after the others: the calendar's range passes 1,000 days (MariaDB's recursion limit). */
  far: number;
}

const CREATE = 'mutation ($input: EventInput!) { create_event(input: $input) { id } }';

/**
 * The four events of `createSample` (publish, draft, hidden, password-protected), plus one of
 * each remaining status: pending, private, trash, and a published one in 2031.
 */
export async function createStarSample(env: TestEnv): Promise<StarSample> {
  const sample = await createSample(env);
  const make = async (input: Record<string, unknown>) =>
    Number((await env.ok(CREATE, { input }, { as: 'administrator' })).create_event.id);
  const pending = await make({
    title: 'Pending Review',
    status: 'pending',
    start_date: '2027-05-02 10:00',
    end_date: '2027-05-02 12:00',
    categories: ['Concerts'],
  });
  const privateEvent = await make({
    title: 'Staff Party',
    status: 'private',
    start_date: '2027-12-31 21:00',
    end_date: '2028-01-01 02:00',
    organizer: [{ organizer: 'Second Crew' }],
  });
  const trashed = await make({
    title: 'Gone',
    start_date: '2027-01-01 10:00',
    end_date: '2027-01-01 11:00',
    tags: ['jazz'],
  });
  await env.ok(
    'mutation ($id: Int!) { delete_event(id: $id) { id } }',
    { id: trashed },
    {
      as: 'administrator',
    },
  );
  const far = await make({
    title: 'Far Festival',
    start_date: '2031-06-01 12:00',
    end_date: '2031-06-03 18:00',
    venue: { venue: 'Riverside' },
    categories: ['Markets'],
  });
  return { ...sample, pending, privateEvent, trashed, far };
}

/** Rows of a table or view. */
export async function countOf(env: TestEnv, relation: string): Promise<number> {
  const row = await env.db(relation).count({ n: '*' }).first();
  return Number(row?.n);
}

/** Days from the earliest event start to the latest event end, both included, every status. */
export async function daysInRange(env: TestEnv): Promise<number> {
  const row = await env.db('events').min({ first: 'start_date' }).max({ last: 'end_date' }).first();
  const text = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
  const day = (value: unknown) => Date.parse(`${text(value).slice(0, 10)}T00:00:00Z`);
  return (day(row!.last) - day(row!.first)) / 86_400_000 + 1;
}
