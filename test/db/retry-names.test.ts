import { createDb, type Db } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { transact } from '../../src/db/retry';

/**
 * `transact` locks `names` on every run, and `retryNames` (slugs, which a unique index guards)
 * only on runs after one that lost a race. On a real (embedded) database: the name-lock rows
 * each run upserts are read off the statements it sends.
 */

const duplicate = Object.assign(new Error('Duplicate entry'), {
  code: 'ER_DUP_ENTRY',
  errno: 1062,
});

describe('transact name locks', () => {
  let db: Db;
  /** Per run of the work: how many name-lock rows its transaction upserted before it. */
  let locked: number[];
  let pending = 0;

  beforeAll(async () => {
    db = createDb({ databaseUrl: 'sqlite::memory:', poolMax: 1 });
    await migrateLatest(db);
    db.on('query', (query: { sql: string; bindings?: unknown[] }) => {
      if (/^insert into [`"]name_locks[`"]/i.test(query.sql)) {
        pending += query.bindings?.length ?? 0;
      }
    });
  });
  afterAll(() => db.destroy());
  beforeEach(() => {
    locked = [];
    pending = 0;
  });

  /** The work: records the locks taken so far in this run; fails while `fail(run)` says so. */
  const work = (fail: (run: number) => boolean) => async () => {
    locked.push(pending);
    pending = 0;
    if (fail(locked.length)) throw duplicate;
    return 'ok';
  };

  it('locks retry names only when a run is repeated', async () => {
    const names = [{ scope: 'venues', name: 'Hall' }];
    const retryNames = [{ scope: 'events', name: 'Gig' }];
    await transact(
      db,
      { names, retryNames },
      work((run) => run === 1),
    );
    expect(locked).toEqual([1, 2]);
  });

  it('takes no lock at all on a first run with only retry names', async () => {
    await transact(
      db,
      { retryNames: [{ scope: 'events', name: 'Gig' }] },
      work(() => false),
    );
    expect(locked).toEqual([0]);
  });

  it('skips blank names', async () => {
    const names = [
      { scope: 'venues', name: '  ' },
      { scope: 'venues', name: 'Hall' },
    ];
    await transact(
      db,
      { names },
      work(() => false),
    );
    expect(locked).toEqual([1]);
  });
});
