import { GraphQLError } from 'graphql';
import { loadConfig } from '../../src/config/config';
import {
  describeDbError,
  isDatabaseUnavailable,
  isDuplicateKey,
  isRetryable,
  isTransientStartupError,
} from '../../src/db/errors';
import { createDb, quietWarnings, redactedUrl, type Db } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { invalid } from '../../src/lib/errors';
import { nameLockKey } from '../../src/db/name-locks';
import { transact } from '../../src/db/retry';

/** Classification of driver errors, the retry loop and the name-lock keys (ISSUE 5). */

function driverError(fields: Record<string, unknown>, message = 'boom'): Error {
  return Object.assign(new Error(message), fields);
}

describe('database error classification', () => {
  it.each([
    ['ECONNREFUSED', { code: 'ECONNREFUSED' }],
    ['ETIMEDOUT', { code: 'ETIMEDOUT' }],
    ['PROTOCOL_CONNECTION_LOST', { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }],
    ['too many connections', { code: 'ER_CON_COUNT_ERROR', errno: 1040 }],
    ['server shutting down', { errno: 1053 }],
    ['Knex pool timeout', { name: 'KnexTimeoutError' }],
    ['SQLite busy', { code: 'SQLITE_BUSY' }],
    ['a deadlock that outlasted the retries', { code: 'ER_LOCK_DEADLOCK', errno: 1213 }],
  ])('%s is "unavailable"', (_label, fields) => {
    expect(isDatabaseUnavailable(driverError(fields))).toBe(true);
  });

  it('recognises unavailability through wrappers and copies that lost the code', () => {
    const wrapped = new GraphQLError('x', { originalError: driverError({ code: 'ECONNRESET' }) });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error('connect ECONNRESET 127.0.0.1:3306'))).toBe(true);
    const aggregate = new AggregateError([driverError({ code: 'ECONNREFUSED' })], 'x');
    expect(isDatabaseUnavailable(aggregate)).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error("ROLLBACK - Can't add new command when connection is in closed state"),
      ),
    ).toBe(true);
  });

  it('does not call bugs or input errors "unavailable"', () => {
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(driverError({ code: 'ER_PARSE_ERROR', errno: 1064 }))).toBe(false);
    expect(isDatabaseUnavailable(invalid('title', 'bad'))).toBe(false);
  });

  it('retries lost races only: duplicates, deadlocks, lock wait timeouts, stale SQLite snapshots', () => {
    expect(isDuplicateKey(driverError({ code: 'ER_DUP_ENTRY', errno: 1062 }))).toBe(true);
    expect(isRetryable(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(true);
    expect(isRetryable(driverError({ code: 'ER_LOCK_DEADLOCK', errno: 1213 }))).toBe(true);
    expect(isRetryable(driverError({ code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 }))).toBe(true);
    expect(isRetryable(driverError({ code: 'SQLITE_BUSY_SNAPSHOT' }))).toBe(true);
    expect(isRetryable(driverError({ code: 'ECONNRESET' }))).toBe(false);
    expect(isRetryable(driverError({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }))).toBe(false);
  });

  it('retries start-up while unreachable, not on a wrong password', () => {
    expect(isTransientStartupError(driverError({ code: 'ECONNREFUSED' }))).toBe(true);
    expect(
      isTransientStartupError(
        driverError({ code: 'ER_ACCESS_DENIED_ERROR', errno: 1045, fatal: true }),
      ),
    ).toBe(false);
  });

  it('describes an error in one line, without the statement Knex prefixes', () => {
    const error = driverError(
      { code: 'ER_LOCK_DEADLOCK' },
      "update `terms` set `count` = 1 where `id` = 'x' - Deadlock found when trying to get lock",
    );
    expect(describeDbError(error)).toBe(
      'Deadlock found when trying to get lock (ER_LOCK_DEADLOCK)',
    );
  });
});

describe('transact', () => {
  /** A real (embedded) database: each run of the work is one real transaction. */
  let db: Db;
  beforeAll(async () => {
    db = createDb({ databaseUrl: 'sqlite::memory:', poolMax: 1 });
    await migrateLatest(db);
  });
  afterAll(() => db.destroy());

  /** Runs `transact` with work that fails with `errors` in turn, then writes a venue. */
  async function attempts(errors: unknown[], options: { attempts?: number } = {}) {
    let runs = 0;
    const outcome = await transact(db, options, async (trx) => {
      runs++;
      // A write on every run: a run that throws must leave nothing behind.
      await trx('post_ids').insert({ type: 'venue' });
      const error = errors[runs - 1];
      if (error) throw error;
      return 'done';
    }).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    return { runs, outcome };
  }

  it('runs the whole transaction again after a lost race, rolling the lost runs back', async () => {
    const before = (await db('post_ids').count({ n: '*' }))[0]!.n;
    const race = driverError({ code: 'ER_DUP_ENTRY', errno: 1062 });
    const { runs, outcome } = await attempts([race, race]);
    expect(outcome).toEqual({ value: 'done' });
    expect(runs).toBe(3);
    expect(Number((await db('post_ids').count({ n: '*' }))[0]!.n)).toBe(Number(before) + 1);
  });

  it('gives up after the allowed attempts with the last error', async () => {
    const deadlock = driverError({ code: 'ER_LOCK_DEADLOCK', errno: 1213 });
    const { runs, outcome } = await attempts([deadlock, deadlock, deadlock], { attempts: 3 });
    expect(outcome).toEqual({ error: deadlock });
    expect(runs).toBe(3);
  });

  it('never repeats a rejected write or one whose connection failed', async () => {
    for (const error of [
      invalid('title', 'bad'),
      driverError({ code: 'PROTOCOL_CONNECTION_LOST' }),
    ]) {
      const { runs, outcome } = await attempts([error]);
      expect(outcome).toEqual({ error });
      expect(runs).toBe(1);
    }
  });
});

describe('name locks', () => {
  it('fold names harder than any collation: case, accents, spaces and punctuation', () => {
    const key = nameLockKey('venues', 'Café Hall');
    expect(nameLockKey('venues', 'cafe hall')).toBe(key);
    expect(nameLockKey('venues', 'CAFÉ-HALL!')).toBe(key);
    expect(nameLockKey('organizers', 'Café Hall')).not.toBe(key);
    expect(nameLockKey('venues', 'Other Hall')).not.toBe(key);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('database settings', () => {
  it('has documented defaults and bounds', () => {
    expect(loadConfig({})).toMatchObject({
      dbConnectTimeoutMs: 5000,
      dbAcquireTimeoutMs: 10000,
      dbStartupTimeoutMs: 30000,
      shutdownTimeoutMs: 10000,
    });
    expect(() => loadConfig({ DB_CONNECT_TIMEOUT_MS: '10' })).toThrow(
      /^DB_CONNECT_TIMEOUT_MS must/,
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon' })).toThrow(/^SHUTDOWN_TIMEOUT_MS must/);
  });

  it('hides the password of a MySQL URL in logs', () => {
    expect(redactedUrl('mysql://u:secret@db:3306/cal')).toBe('mysql://u:***@db:3306/cal');
    expect(redactedUrl('sqlite:./data/x.sqlite')).toBe('sqlite:./data/x.sqlite');
  });

  it('keeps one line per failed connection attempt and throttles repeats', () => {
    const lines: string[] = [];
    const warn = quietWarnings((line) => lines.push(line), 60_000);
    warn('Acquire connection error: Error: connect ECONNREFUSED\n    at stack');
    warn('Acquire connection error: Error: connect ECONNREFUSED\n    at stack');
    warn('Something else entirely');
    expect(lines).toEqual([
      'Acquire connection error: Error: connect ECONNREFUSED',
      'Something else entirely',
    ]);
  });
});
