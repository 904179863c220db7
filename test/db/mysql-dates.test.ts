import { HotRead } from '../../src/db/hot-read';
import { createDb, type Db } from '../../src/db/knex';
import { installFastDateStrings, mysqlDateReaders, readBoth } from '../../src/db/mysql-dates';
import { describeEachDb } from '../support/harness';

/**
 * The DATETIME reader that replaces mysql2's in the binary protocol (src/db/mysql-dates.ts)
 * answers exactly what mysql2's own answers: on generated packets (every length, column type
 * and separator it may meet), and on MariaDB's real rows, read once with each reader.
 */

const DATETIME = 12;
const TIMESTAMP = 7;
const DATE = 10;

function readers() {
  expect(installFastDateStrings()).toBe(true);
  const found = mysqlDateReaders();
  if (!found) throw new Error('mysql2 packet reader not found');
  return { ...found, fast: found.Packet.prototype.readDateTimeString };
}

/** A packet header, then the binary protocol's DATETIME: a length byte and that many bytes. */
function packet(length: number, values: number[]): Buffer {
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, micro = 0] = values;
  const body = [y & 255, y >> 8, mo, d, h, mi, s, ...[0, 8, 16, 24].map((b) => (micro >> b) & 255)];
  return Buffer.from([0, 0, 0, 0, length, ...body.slice(0, length), 99]);
}

describe('the DATETIME reader of the binary protocol', () => {
  it('is installed over mysql2 own (the pinned mysql2 still has the method it replaces)', () => {
    const { original, fast } = readers();
    expect(fast).not.toBe(original);
  });

  it('answers what mysql2 answers, and leaves the packet where mysql2 leaves it', () => {
    const { Packet, original, fast } = readers();
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let compared = 0;
    const differing: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const values = [
        random(10000),
        1 + random(12),
        1 + random(31),
        random(24),
        random(60),
        random(60),
        random(1000000),
      ];
      for (const length of [0, 4, 7, 11]) {
        for (const type of [DATETIME, TIMESTAMP, DATE]) {
          for (const sep of [null, 'T', '--']) {
            const [textA, endA, textB, endB] = readBoth(
              Packet,
              original,
              fast,
              packet(length, values),
              sep,
              type,
            );
            if (textA !== textB || endA !== endB) {
              differing.push(`${values.join(',')} length ${length} type ${type} sep ${sep}`);
            }
            compared++;
          }
        }
      }
    }
    expect(differing).toEqual([]);
    expect(compared).toBe(2000 * 4 * 3 * 3);
  });

  it('writes a date and time as mysql2 text does', () => {
    const { Packet, original, fast } = readers();
    const [, , text] = readBoth(
      Packet,
      original,
      fast,
      packet(7, [2026, 11, 26, 3, 42, 4]),
      null,
      DATETIME,
    );
    expect(text).toBe('2026-11-26 03:42:04');
  });
});

describeEachDb('DATETIME values read through prepared statements', (env) => {
  let db: Db;
  const values = [
    '2026-11-26 03:42:04',
    '2026-01-01 00:00:00',
    '0001-01-01 00:00:00',
    '1000-01-01 00:00:01',
    '9999-12-31 23:59:59',
    '2024-02-29 12:00:00',
  ];
  const read = new HotRead((q, ids) =>
    q('date_probe').select('id', 'at', 'day', 'stamp', 'precise').whereIn('id', ids).orderBy('id'),
  );

  beforeAll(async () => {
    db = createDb({ databaseUrl: env.config.databaseUrl, poolMax: 1 });
    await db.schema.dropTableIfExists('date_probe');
    await db.schema.createTable('date_probe', (t) => {
      t.integer('id').primary();
      t.datetime('at');
      t.date('day');
      t.timestamp('stamp').nullable();
      t.datetime('precise', { precision: 3 });
    });
    await db('date_probe').insert(
      values.map((at, i) => ({
        id: i + 1,
        at,
        day: at.slice(0, 10),
        // TIMESTAMP holds 1970–2038 only.
        stamp: at.startsWith('2026') || at.startsWith('2024') ? at : null,
        precise: i % 2 ? `${at}.120` : `${at}.000`,
      })),
    );
  });

  afterAll(async () => {
    await db.schema.dropTableIfExists('date_probe');
    await db.destroy();
  });

  it('reads the same rows with mysql2 own reader and with ours', async () => {
    const ids = values.map((_v, i) => i + 1);
    const ours = await read.run(db, ids);
    expect(ours.map((r) => r.at)).toEqual(values);
    expect(ours.map((r) => r.day)).toEqual(values.map((v) => v.slice(0, 10)));
    if (env.dialect !== 'mysql') return;
    const { Packet, original, fast } = readers();
    Packet.prototype.readDateTimeString = original;
    try {
      expect(await read.run(db, ids)).toEqual(ours);
    } finally {
      Packet.prototype.readDateTimeString = fast;
    }
  });
});
