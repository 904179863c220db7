import type { Knex } from 'knex';
import { KeyedRead } from './hot-read';
import type { Queryable } from './queryable';

/**
 * Exact list totals without counting on every request (issue 6): a total is counted once, kept
 * in this process with the database's write generation it was counted at, and reused while the
 * generation is unchanged. The generation is the sum of `list_generations`, which every calendar
 * write transaction increments before it commits (`bumpListGeneration`, called by `transact`
 * and the bulk batches), so a write by any process — another server, the import CLI — makes
 * every cached total stale at once. A cached total therefore costs one read of at most
 * `SHARDS` rows instead of a count over the whole date window (tens of thousands of rows at
 * 100,000 events; the search count reads every row of the window).
 *
 * Writes of this process that do not go through a write transaction (test fixtures, scripts)
 * empty its cache as they complete. Writes made to the database by other means (SQL by hand)
 * are seen at the next calendar write, or after a restart.
 */

/** Counters written at random, so concurrent writes rarely wait on the same row. */
const SHARDS = 16;
/** Totals kept per database handle, least recently used dropped first. */
const MAX_ENTRIES = 1000;

/** Increments the write generation; run it inside the write's transaction, last. */
export async function bumpListGeneration(q: Queryable): Promise<void> {
  await q('list_generations')
    .insert({ shard: Math.floor(Math.random() * SHARDS), n: 1 })
    .onConflict('shard')
    .merge({ n: q.raw('?? + 1', ['list_generations.n']) });
  // Listeners hear of the write once it is visible to other connections, not before.
  if (isTransaction(q)) {
    (q as Knex.Transaction).executionPromise.then(notifyCommitted, () => undefined);
  } else {
    notifyCommitted();
  }
}

type CommitListener = () => void;
const commitListeners = new Set<CommitListener>();

/**
 * Calls `listener` after every committed calendar write of this process: each write transaction
 * (`transact`, the bulk batches) once it has committed, and each write statement run outside a
 * transaction on a database handle passed to `watchCommittedWrites` once it has completed.
 * Response caches key their entries by a generation this moves (src/http/response-cache.ts).
 * Returns the unsubscribe function.
 */
export function onCommittedWrite(listener: CommitListener): () => void {
  commitListeners.add(listener);
  return () => commitListeners.delete(listener);
}

function notifyCommitted(): void {
  for (const listener of commitListeners) listener();
}

/** A statement that changes data or schema (selects, PRAGMAs, BEGIN, COMMIT do not). */
const WRITE_STATEMENT = /^\s*(?:insert|update|delete|replace|truncate|alter|drop|create)\b/i;

const watched = new WeakSet<Knex>();

/**
 * Reports the write statements `db` runs outside a transaction (fixtures, scripts, one-statement
 * writes): they are committed once answered. Statements inside a transaction are reported by
 * the transaction's `bumpListGeneration` after its commit.
 */
export function watchCommittedWrites(db: Knex): void {
  if (watched.has(db)) return;
  watched.add(db);
  db.on('query-response', (_response: unknown, query: { sql?: unknown; __knexTxId?: unknown }) => {
    if (query.__knexTxId !== undefined) return;
    if (typeof query.sql === 'string' && WRITE_STATEMENT.test(query.sql)) notifyCommitted();
  });
}

/** The write generation now: it changes with every calendar write (feeds derive ETags from it). */
export async function writeGeneration(q: Queryable): Promise<number> {
  const [row] = (await q('list_generations').sum({ generation: 'n' })) as {
    generation: number | string | null;
  }[];
  return Number(row?.generation ?? 0);
}

interface Entry {
  generation: number;
  total: number;
}

class TotalCache {
  private readonly entries = new Map<string, Entry>();

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Keeps `entry` unless a total of a later generation is already kept. */
  set(key: string, entry: Entry): void {
    const kept = this.entries.get(key);
    if (kept && kept.generation > entry.generation) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

/** A write to a table that decides which events a list holds. */
const LIST_WRITE =
  /^\s*(?:insert\s+(?:ignore\s+)?into|update|delete\s+from|replace\s+into)\s+[`"]?(?:events|event_terms|event_organizers|venues|organizers|terms)[`"]?[\s(]/i;

const caches = new WeakMap<Knex, TotalCache>();
const clearListeners = new Set<(db: Knex) => void>();

/**
 * Calls `listener` whenever the kept totals of `db` are dropped because this process wrote to a
 * list's table outside a write transaction (which moves no generation): what is kept beside
 * the totals must go too.
 */
export function onTotalsDropped(listener: (db: Knex) => void): void {
  clearListeners.add(listener);
}

function cacheOf(db: Knex): TotalCache {
  let cache = caches.get(db);
  if (!cache) {
    const created = new TotalCache();
    db.on('query-response', (_response: unknown, query: { sql?: unknown }) => {
      if (typeof query.sql === 'string' && LIST_WRITE.test(query.sql)) {
        created.clear();
        for (const listener of clearListeners) listener(db);
      }
    });
    caches.set(db, created);
    cache = created;
  }
  return cache;
}

function isTransaction(q: Queryable): boolean {
  return (q as Knex.Transaction).isTransaction === true;
}

/**
 * The total `count` selects (as `total`), from the cache while the write generation is the one
 * it was counted at. Otherwise `count` runs with the generation read by the same statement (one
 * consistent snapshot), and the pair is kept. Inside a transaction (which may see its own
 * uncommitted writes) `count` always runs.
 */
export async function cachedTotal(
  q: Queryable,
  key: string,
  count: Knex.QueryBuilder,
): Promise<number> {
  if (isTransaction(q)) {
    const [row] = (await count) as { total: number | string }[];
    return Number(row?.total ?? 0);
  }
  const known = cacheOf(q as Knex).get(key);
  if (known) {
    const [row] = (await q('list_generations').sum({ generation: 'n' })) as {
      generation: number | string | null;
    }[];
    if (Number(row?.generation ?? 0) === known.generation) return known.total;
  }
  return countAndKeep(q, key, count);
}

/** Runs `count` with the generation read by the same statement and keeps the pair. */
async function countAndKeep(q: Queryable, key: string, count: Knex.QueryBuilder): Promise<number> {
  count.select(generationOf(q, 'generation'));
  const [row] = (await count) as { total: number | string; generation: number | string }[];
  const entry = { generation: Number(row?.generation ?? 0), total: Number(row?.total ?? 0) };
  cacheOf(q as Knex).set(key, entry);
  return entry.total;
}

/** The column a page read carries the write generation in (`pageAndTotal`). */
const GENERATION = '__list_generation';

type Row = Record<string, unknown>;

export interface PageAndTotal {
  total: number;
  /**
   * The driver's rows of the page: empty when `offset` is past the total. They may carry the
   * generation column (`__list_generation`): the row readers (src/db/row-reader.ts `plainRows`,
   * the event page's `splitVenues`) leave it out.
   */
  rows: Row[];
}

/**
 * A list's total (`count`, selecting `total`) and one page of it (`page`, which has rows only
 * below `offset`). While a total of `key` is kept, the page is read first, carrying the write
 * generation in the same statement: when that is the kept total's generation, page and total
 * belong to one snapshot and the list costs that one statement (a separate generation read was
 * a statement per list request, ~70 µs of this process's CPU and as much of the database's).
 * Otherwise (nothing kept, a write since, an empty page, a transaction) the total is counted as
 * `cachedTotal` does and the page read only when it has rows.
 */
export async function pageAndTotal(
  q: Queryable,
  key: string,
  count: () => Knex.QueryBuilder,
  page: PageRead,
  offset: number,
): Promise<PageAndTotal> {
  const known = isTransaction(q) ? undefined : cacheOf(q as Knex).get(key);
  if (known) {
    const rows = await PAGES.run(q, `${page.key} +generation`, () =>
      page.build().select(generationOf(q, GENERATION)),
    );
    if (rows.length > 0 && Number(rows[0]![GENERATION]) === known.generation) {
      return { total: known.total, rows };
    }
    // A write since (the kept total is stale: count now), or no row to tell (ask as usual).
    const total =
      rows.length > 0 ? await countAndKeep(q, key, count()) : await cachedTotal(q, key, count());
    if (offset >= total) return { total, rows: [] };
    return { total, rows: rows.length > 0 ? rows : await read(q, page) };
  }
  const total = await cachedTotal(q, key, count());
  return { total, rows: offset < total ? await read(q, page) : [] };
}

/**
 * A page's query (`build`) and a key deciding all of it — filter, size, offset — under which its
 * compiled statement is kept (`KeyedRead`).
 */
export interface PageRead {
  key: string;
  build: () => Knex.QueryBuilder;
}

const PAGES = new KeyedRead();

function read(q: Queryable, page: PageRead): Promise<Row[]> {
  return PAGES.run(q, page.key, page.build);
}

function generationOf(q: Queryable, alias: string): Knex.Raw {
  return q.raw('(select coalesce(sum(??), 0) from ??) as ??', [
    'list_generations.n',
    'list_generations',
    alias,
  ]);
}

/** Selects the write generation too, read in the same snapshot (`rowGeneration` reads it). */
export function selectGeneration(q: Queryable, query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.select(generationOf(q, GENERATION));
}

/** The generation `selectGeneration` added to a row. */
export function rowGeneration(row: Row): number {
  return Number(row[GENERATION]);
}

/** Keeps a total counted elsewhere (with the generation read by the same statement). */
export function keepTotal(q: Queryable, key: string, generation: number, total: number): void {
  if (!isTransaction(q)) cacheOf(q as Knex).set(key, { generation, total });
}
