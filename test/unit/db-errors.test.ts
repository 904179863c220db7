import { GraphQLError } from 'graphql';
import { loadConfig } from '../../src/config';
import {
  describeDbError,
  isDatabaseUnavailable,
  isDuplicateKey,
  isRetryable,
  isTransientStartupError,
} from '../../src/db/errors';
import { quietWarnings, redactedUrl, type Db } from '../../src/db/knex';
import { invalid } from '../../src/errors';
import { nameLockKey } from '../../src/repositories/name-locks';
import { transact } from '../../src/services/retry';

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
  /** A stand-in for Knex: runs the work with a dummy transaction, counting attempts. */
  function fakeDb(): Db & { attempts: number } {
    const db = {
      attempts: 0,
      async transaction<T>(work: (trx: unknown) => Promise<T>): Promise<T> {
        db.attempts++;
        return work({});
      },
    };
    return db as unknown as Db & { attempts: number };
  }

  it('runs the whole transaction again after a lost race', async () => {
    const db = fakeDb();
    const result = await transact(db, async () => {
      if (db.attempts < 3) throw driverError({ code: 'ER_DUP_ENTRY', errno: 1062 });
      return 'done';
    });
    expect(result).toBe('done');
    expect(db.attempts).toBe(3);
  });

  it('gives up after the allowed attempts with the last error', async () => {
    const db = fakeDb();
    const deadlock = driverError({ code: 'ER_LOCK_DEADLOCK', errno: 1213 });
    await expect(
      transact(db, { attempts: 3 }, async () => {
        throw deadlock;
      }),
    ).rejects.toBe(deadlock);
    expect(db.attempts).toBe(3);
  });

  it('never repeats a rejected write or one whose connection failed', async () => {
    for (const error of [
      invalid('title', 'bad'),
      driverError({ code: 'PROTOCOL_CONNECTION_LOST' }),
    ]) {
      const db = fakeDb();
      await expect(
        transact(db, async () => {
          throw error;
        }),
      ).rejects.toBe(error);
      expect(db.attempts).toBe(1);
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
