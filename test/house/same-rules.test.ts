import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { END_BEFORE_START, ZONE_REASON } from '../../src/events';
import { InvalidParamError } from '../../src/lib';
import { BulkImportError } from '../../src/transfer/bulk/batches';
import { bulkImportEvents, type BulkEventRecord } from '../../src/transfer/bulk/import';
import { csvColumnOf } from '../../src/transfer/csv/import';
import {
  importEvents,
  type ImportProblem,
  type ImportRecord,
} from '../../src/transfer/import-events';
import { describeEachDb, type TestEnv } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';
import { tempDir } from '../transfer/import-support';

/**
 * One rule set per entity (issue 14): the same invalid event, sent through GraphQL, the REST
 * contract, the import service, the bulk path and the CLI (`calendar import:csv`, a process of
 * its own), is refused with the same domain error — the same parameter and the same reason —
 * by each, and nothing is written.
 */

const root = path.join(__dirname, '..', '..');
const tsx = require.resolve('tsx/cli');

const CREATE = `mutation ($input: EventInput!) { create_event(input: $input) { id } }`;
const UPDATE = `mutation ($id: Int!, $input: EventInput!) { update_event(id: $id, input: $input) { id } }`;
const BASE = {
  title: 'Same rules',
  start_date: '2027-05-01 10:00:00',
  end_date: '2027-05-01 11:00:00',
};

interface Case {
  name: string;
  /** The GraphQL `EventInput` (and REST body, unless `rest` says otherwise) beyond BASE. */
  input: Record<string, unknown>;
  rest?: Record<string, unknown>;
  /** CSV cells beyond BASE; absent: the format cannot say it. */
  csv?: Record<string, string>;
  /** The import record beyond BASE's fields. */
  record?: Partial<ImportRecord> & { fields?: Record<string, unknown> };
  /** The bulk record beyond BASE; absent: bulk records carry no such field. */
  bulk?: Partial<BulkEventRecord>;
  /** What the single write answers: parameter → reason. */
  expected: Record<string, string>;
}

const long = (char: string, n: number) => char.repeat(n);
const HALL = { venue: 'Rule Hall' };

const CASES: Case[] = [
  {
    name: 'an end before its start',
    input: { end_date: '2027-04-30 10:00:00' },
    expected: { end_date: END_BEFORE_START },
  },
  {
    name: 'an unknown time zone',
    input: { timezone: 'Mars/Base' },
    expected: { timezone: ZONE_REASON },
  },
  {
    name: 'an over-long title',
    input: { title: long('t', 501) },
    expected: { title: 'must be at most 500 characters' },
  },
  {
    name: 'a cost too long to store',
    input: { cost: long('9', 1001) },
    expected: { cost: 'must be at most 1000 characters' },
  },
  {
    name: 'trash as a status',
    input: { status: 'trash' },
    expected: { status: 'cannot be set to trash; delete the record instead' },
  },
  {
    name: 'a website that is no URL',
    input: { website: 'nowhere' },
    expected: { website: 'must be an absolute http(s) URL or empty' },
  },
  {
    name: 'an unknown venue id',
    input: { venue: { id: 999999 } },
    rest: { venue: 999999 },
    record: { venue: { id: 999999 } },
    bulk: { venue_id: 999999 },
    expected: { venue: '999999 is not the id of an existing venue' },
  },
  {
    name: 'a venue whose website is no URL',
    input: { venue: { ...HALL, website: 'nope' } },
    csv: { venue: HALL.venue, venue_website: 'nope' },
    record: { venue: { ...HALL, website: 'nope' } },
    expected: { venue: 'website must be an absolute http(s) URL or empty' },
  },
  {
    name: 'a venue off the globe',
    input: { venue: { ...HALL, geo_lat: 91 } },
    csv: { venue: HALL.venue, venue_lat: '91' },
    record: { venue: { ...HALL, geo_lat: 91 } },
    expected: { venue: 'geo_lat must be a number between -90 and 90' },
  },
  {
    name: 'an over-long organizer name',
    input: { organizer: [{ organizer: long('o', 501) }] },
    csv: { organizers: long('o', 501) },
    record: { organizers: [{ organizer: long('o', 501) }] },
    expected: { organizer: 'must be at most 500 characters' },
  },
  {
    name: 'an over-long new category',
    input: { categories: [long('c', 201)] },
    csv: { categories: long('c', 201) },
    record: { categories: [long('c', 201)] },
    expected: { categories: 'a new category name must be at most 200 characters' },
  },
  {
    name: 'an unknown category id',
    input: { categories: ['999999'] },
    bulk: { category_ids: [999999] },
    expected: { categories: 'unknown categories id(s): 999999' },
  },
];

/** Scalar event fields go into CSV cells and import/bulk records as they are. */
const SCALARS = ['title', 'start_date', 'end_date', 'timezone', 'cost', 'status', 'website'];

function scalars(c: Case): Record<string, string> | null {
  const entries = Object.entries(c.input);
  if (!entries.every(([key]) => SCALARS.includes(key))) return null;
  return Object.fromEntries(entries.map(([key, value]) => [key, String(value)]));
}

function csvCells(c: Case): Record<string, string> | null {
  const cells = c.csv ?? scalars(c);
  return cells ? { ...BASE, ...cells } : null;
}

function importRecord(c: Case): ImportRecord | null {
  const fields = scalars(c);
  if (!fields && !c.record) return null;
  return {
    line: 1,
    key: null,
    ...c.record,
    fields: { ...BASE, ...fields, ...c.record?.fields },
  } as ImportRecord;
}

function bulkRecord(c: Case): BulkEventRecord | null {
  const fields = scalars(c);
  if (!fields && !c.bulk) return null;
  return { ...BASE, ...fields, ...c.bulk } as BulkEventRecord;
}

function paramsOf(problems: ImportProblem[]): Record<string, string> {
  return Object.fromEntries(problems.map((p) => [p.column ?? '', p.reason]));
}

/**
 * `calendar import:csv FILE` in a process of its own, as `npm run calendar` runs it (the script
 * runs the compiled dist/src/cli/index.js; here the source runs through tsx, so no build is
 * needed).
 */
function spawnCli(
  env: TestEnv,
  ...args: string[]
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, 'src/cli/index.ts', ...args], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: env.config.databaseUrl,
        SITE_URL: env.config.siteUrl,
        SITE_TIMEZONE: env.config.siteTimezone,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describeEachDb('the same rules on every write path', (env) => {
  const rest = new RestClient(env);
  const tmp = tempDir();
  afterAll(() => tmp.remove());

  /** The event every update below tries to change. */
  let target: { id: number; global_id: string };
  beforeAll(async () => {
    const made = await env.ok(
      `mutation ($input: EventInput!) { create_event(input: $input) { id global_id } }`,
      { input: { ...BASE, title: 'Rule target' } },
      { as: 'administrator' },
    );
    target = made.create_event;
  });

  /** Runs `write`, asserting that it changed no table. */
  async function unchanged<T>(write: () => Promise<T>): Promise<T> {
    const before = await env.snapshot();
    const result = await write();
    expect(await env.snapshot()).toBe(before);
    return result;
  }

  describe.each(CASES)('$name', (c) => {
    it('is refused by GraphQL with the single-write rule', async () => {
      const result = await unchanged(() =>
        env.gql(CREATE, { input: { ...BASE, ...c.input } }, { as: 'administrator' }),
      );
      expect(result.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        params: c.expected,
      });
    });

    it('is refused by the REST contract alike', async () => {
      const response = await unchanged(() =>
        rest.post('/events', { ...BASE, ...(c.rest ?? c.input) }, { as: 'administrator' }),
      );
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: c.expected },
      });
    });

    it('is refused by updates alike: GraphQL, REST PUT and an import of the same event', async () => {
      const graphql = await unchanged(() =>
        env.gql(UPDATE, { id: target.id, input: c.input }, { as: 'administrator' }),
      );
      expect(graphql.errors?.[0]?.extensions).toMatchObject({ params: c.expected });
      const put = await unchanged(() =>
        rest.put(`/events/${target.id}`, c.rest ?? c.input, { as: 'administrator' }),
      );
      expect([put.status, put.body?.data?.params]).toEqual([400, c.expected]);
      const record = importRecord(c);
      if (!record) return;
      const problems: ImportProblem[] = [];
      const summary = await unchanged(() =>
        importEvents(env.db, env.config, [{ ...record, key: target.global_id }], {
          now: env.now,
          onProblem: (p) => problems.push(p),
        }),
      );
      expect(summary).toMatchObject({ created: 0, updated: 0, failed: 1 });
      expect(paramsOf(problems)).toEqual(c.expected);
    });

    it('is refused by the import service alike', async () => {
      const record = importRecord(c);
      if (!record) return; // neither a CSV nor an ICS record can say it
      const problems: ImportProblem[] = [];
      const summary = await unchanged(() =>
        importEvents(env.db, env.config, [record], {
          now: env.now,
          onProblem: (p) => problems.push(p),
        }),
      );
      expect(summary).toMatchObject({ created: 0, updated: 0, failed: 1 });
      expect(paramsOf(problems)).toEqual(c.expected);
    });

    it('is refused by the bulk path alike', async () => {
      const record = bulkRecord(c);
      if (!record) return; // bulk records link by id only
      const error = await unchanged(() =>
        bulkImportEvents(env.db, env.config, [record], { now: env.now }).catch((e: unknown) => e),
      );
      expect(error).toBeInstanceOf(BulkImportError);
      const cause = (error as BulkImportError).cause;
      expect(cause).toBeInstanceOf(InvalidParamError);
      expect((cause as InvalidParamError).params).toEqual(c.expected);
    });
  });

  it('refuses them all from a CSV file given to `calendar import:csv`, writing nothing', async () => {
    const rows = CASES.flatMap((c) => {
      const cells = csvCells(c);
      return cells ? [{ name: c.name, cells, expected: c.expected }] : [];
    });
    expect(rows.length).toBeGreaterThanOrEqual(9);
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r.cells)))];
    const file = tmp.file(`same-rules-${env.dialect}.csv`);
    fs.writeFileSync(
      file,
      stringify([columns, ...rows.map((r) => columns.map((column) => r.cells[column] ?? ''))]),
    );
    const run = await unchanged(() => spawnCli(env, 'import:csv', file));
    expect(run.status).toBe(1);
    const problems = new Map<number, Record<string, string>>();
    for (const line of run.stderr.split('\n')) {
      const m = /^.*\.csv:(\d+): ([\w]+): (.*)$/.exec(line);
      if (m) problems.set(Number(m[1]), { ...problems.get(Number(m[1])), [m[2]!]: m[3]! });
    }
    rows.forEach((row, i) => {
      const expected = Object.fromEntries(
        Object.entries(row.expected).map(([param, reason]) => [csvColumnOf(param), reason]),
      );
      expect([row.name, problems.get(i + 2)]).toEqual([row.name, expected]);
    });
    expect(run.stderr).toMatch(`${rows.length} of ${rows.length} rows failed`);
  }, 120_000);
});
