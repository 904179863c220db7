import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli';
import { eventIdsAfter } from '../../src/transfer/store/imports';
import { eventsByIds, userExportContext, type ExportEvent } from '../../src/transfer/export-source';
import { ensureBuiltinAdmin } from '../../src/users/users';
import { costText, storedWebsite } from '../../src/transfer/csv/columns';
import type { TestEnv } from '../support/harness';

/** Shared pieces of the import/export/ICS/CSV suites. */

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run calendar -- <args>` in-process on `env`'s database, capturing its output. */
export async function cli(env: TestEnv, ...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(console, 'log').mockImplementation((line: string) => {
    stdout += `${line}\n`;
  });
  const err = jest.spyOn(console, 'error').mockImplementation((line: string) => {
    stderr += `${line}\n`;
  });
  try {
    const status = await runCli(args, {
      DATABASE_URL: env.config.databaseUrl,
      SITE_URL: env.config.siteUrl,
      SITE_TIMEZONE: env.config.siteTimezone,
    });
    return { status, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

export function tempDir(): { dir: string; file: (name: string) => string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-io-'));
  return {
    dir,
    file: (name) => path.join(dir, name),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

const CREATE = `mutation ($input: EventInput!) { create_event(input: $input) { id global_id } }`;

export interface Sample {
  jazz: { id: number; global_id: string };
  fair: { id: number; global_id: string };
  offset: { id: number; global_id: string };
  secret: { id: number; global_id: string };
}

/**
 * Four events through the real write path: a timed New York event with venue, two organizers,
 * categories (one with a comma), tags, a cost list and HTML; an all-day two-day draft in
 * Paris; a hidden event at a fixed offset on the same venue; a password-protected one.
 */
export async function createSample(env: TestEnv): Promise<Sample> {
  const make = async (input: Record<string, unknown>) =>
    (await env.ok(CREATE, { input }, { as: 'administrator' })).create_event as {
      id: number;
      global_id: string;
    };
  const venue = {
    venue: 'Main Hall',
    address: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    country: 'United States',
    phone: '+1 555 0100',
    website: 'https://hall.example.com',
    geo_lat: 39.7817,
    geo_lng: -89.6501,
  };
  const jazz = await make({
    title: 'Jazz Night',
    description: '<p>Hello &amp; <strong>welcome</strong></p><p>Second line</p>',
    excerpt: '<p>Short, sweet</p>',
    start_date: '2027-03-10 19:00:00',
    end_date: '2027-03-10 22:30:00',
    timezone: 'America/New_York',
    cost: '10, 20, 30',
    website: 'https://jazz.example.com/night',
    featured: true,
    show_map: true,
    venue,
    organizer: [
      { organizer: 'Acme Org', email: 'org@example.com', phone: '+1 555 0101' },
      { organizer: 'Second Crew' },
    ],
    categories: ['Concerts', 'Music, Live'],
    tags: ['jazz', 'late night'],
  });
  const fair = await make({
    title: 'Summer Fair',
    status: 'draft',
    all_day: true,
    start_date: '2027-07-04',
    end_date: '2027-07-05',
    timezone: 'Europe/Paris',
    cost: 'Free',
    categories: ['Markets'],
  });
  const offset = await make({
    title: 'Offset Talk',
    start_date: '2027-01-15 09:30:00',
    end_date: '2027-01-15 11:00:00',
    timezone: 'UTC+5',
    hide_from_listings: true,
    cost: '15€',
    venue: { venue: 'Main Hall' },
    organizer: [{ organizer: 'Acme Org' }],
    tags: ['jazz'],
  });
  const secret = await make({
    title: 'Secret Gig',
    description: '<p>Only for members</p>',
    start_date: '2027-02-01 20:00:00',
    end_date: '2027-02-01 23:00:00',
    timezone: 'Europe/London',
    password: 'open sesame',
    venue: { venue: 'Main Hall' },
    categories: ['Concerts'],
  });
  return { jazz, fair, offset, secret };
}

/** Every non-trashed event as the administrator reads it, in id order. */
export async function allEvents(env: TestEnv): Promise<ExportEvent[]> {
  const admin = await ensureBuiltinAdmin(env.db, env.now);
  const reader = userExportContext(env.db, env.config, admin, env.now);
  const out: ExportEvent[] = [];
  let after = 0;
  for (;;) {
    const ids = await eventIdsAfter(env.db, after, 200);
    if (!ids.length) return out;
    after = ids[ids.length - 1]!;
    out.push(...(await eventsByIds(reader, ids)));
  }
}

/** The data an export carries, without ids, addresses or stamps of the database it is in. */
export function normalized(e: ExportEvent, options: { organizerDetails?: boolean } = {}) {
  return {
    title: e.title,
    slug: e.slug,
    status: e.status,
    description: e.description,
    excerpt: e.excerpt,
    all_day: e.all_day,
    start_date: e.start_date,
    end_date: e.end_date,
    utc_start_date: e.utc_start_date,
    utc_end_date: e.utc_end_date,
    timezone: e.timezone,
    cost: e.cost,
    cost_text: costText(e),
    cost_details: e.cost_details,
    website: storedWebsite(e),
    flags: [e.featured, e.sticky, e.hide_from_listings, e.show_map, e.show_map_link],
    published: e.date_utc,
    venue: e.venue && {
      venue: e.venue.venue,
      address: e.venue.address,
      city: e.venue.city,
      state: e.venue.state,
      province: e.venue.province,
      zip: e.venue.zip,
      country: e.venue.country,
      phone: e.venue.phone,
      website: e.venue.website,
      geo_lat: e.venue.geo_lat,
      geo_lng: e.venue.geo_lng,
    },
    organizers: e.organizer.map((o) =>
      options.organizerDetails
        ? { organizer: o.organizer, email: o.email, phone: o.phone, website: o.website }
        : { organizer: o.organizer, email: o.email },
    ),
    categories: e.categories.map((c) => c.name),
    tags: e.tags.map((t) => t.name),
  };
}

export async function snapshotOf(env: TestEnv, options?: { organizerDetails?: boolean }) {
  return (await allEvents(env))
    .map((e) => normalized(e, options))
    .sort((a, b) => a.title.localeCompare(b.title));
}
