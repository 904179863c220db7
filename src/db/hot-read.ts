import type { Knex } from 'knex';
import type { Queryable } from './queryable';
import { clientDialect } from './knex';

/**
 * The reads every event response makes (rows by id, an event's links), run straight on a pooled
 * connection. Knex compiles each once per dialect and number of keys; running it through Knex's
 * builder and runner each time cost about 230,000 instructions a query (callgrind), as much as
 * the driver's own work. Observers still see the statement: it is announced as Knex's `query`
 * event, which the query-count tests and the benchmark listen to.
 *
 * On MySQL the statement goes as a prepared statement (mysql2 `execute`): MariaDB parses it once
 * per connection instead of at every call (~15 µs of server CPU a query here), and rows come in
 * the binary protocol. Each connection keeps at most PREPARED_PER_CONNECTION statements (knex.ts;
 * the least recently used is closed); should the server's `max_prepared_stmt_count` be reached
 * anyway (many processes on one server), the read goes as plain text rather than fail. SQLite
 * statements are kept per connection by knex.ts.
 *
 * Inside a transaction it runs on the transaction's connection: a transaction's client (Knex's, or
 * src/db/transaction.ts's) hands that out where the shared client would lend a pooled one.
 */

type Key = number | string;
type Row = Record<string, unknown>;

/** Statement texts kept per read (one per dialect and number of keys); more are compiled anew. */
const MAX_SHAPES = 200;

/** mysql2's error when the server holds `max_prepared_stmt_count` statements. */
const TOO_MANY_STATEMENTS = 'ER_MAX_PREPARED_STMT_COUNT_REACHED';

type Callback = (error: (Error & { code?: string }) | null, rows: unknown) => void;

interface MysqlConnection {
  execute(sql: string, bindings: readonly Key[], callback: Callback): void;
  query(sql: string, bindings: readonly Key[], callback: Callback): void;
}

interface SqliteConnection {
  prepare(sql: string): { all(bindings: readonly Key[]): Row[] };
}

interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): unknown;
  emit(event: 'query', query: { sql: string; bindings: readonly Key[]; method: 'select' }): boolean;
}

export class HotRead {
  /** Statement text by `dialect:keys`; null when the builder's bindings are not just the keys. */
  private readonly texts = new Map<string, string | null>();

  constructor(
    /** The read for `keys`: its bindings must be exactly the keys, in order. */
    private readonly build: (q: Queryable, keys: readonly Key[]) => Knex.QueryBuilder,
  ) {}

  async run(q: Queryable, keys: readonly Key[]): Promise<Row[]> {
    const sql = this.textFor(q, keys);
    if (sql === null) return (await this.build(q, keys)) as Row[];
    return runOnConnection(q, sql, keys);
  }

  private textFor(q: Queryable, keys: readonly Key[]): string | null {
    const shape = `${clientDialect(q)}:${keys.length}`;
    let sql = this.texts.get(shape);
    if (sql === undefined) {
      const native = this.build(q, keys).toSQL().toNative();
      const same =
        native.bindings.length === keys.length && native.bindings.every((b, i) => b === keys[i]);
      sql = same ? native.sql : null;
      if (this.texts.size < MAX_SHAPES) this.texts.set(shape, sql);
    }
    return sql;
  }
}

/**
 * Reads whose whole statement — text and bindings — follows from a key the caller computes (a
 * list's filter and page): Knex builds and compiles the statement once per key, later reads with
 * the same key run that text as `HotRead` runs its own. Building a list page's query (filters,
 * sub-queries, the joined venue) through Knex cost about as much as the driver's whole work for
 * it. The key must decide everything the builder puts into the statement.
 */
export class KeyedRead {
  private readonly statements = new Map<string, { sql: string; bindings: readonly Key[] }>();

  constructor(private readonly maxKeys = 2000) {}

  async run(q: Queryable, key: string, build: () => Knex.QueryBuilder): Promise<Row[]> {
    const shape = `${clientDialect(q)}:${key}`;
    let statement = this.statements.get(shape);
    if (statement !== undefined && verifyKeys) verify(statement, build, key);
    if (statement === undefined) {
      const native = build().toSQL().toNative();
      statement = { sql: native.sql, bindings: native.bindings as Key[] };
      if (this.statements.size >= this.maxKeys) {
        const oldest = this.statements.keys().next();
        if (!oldest.done) this.statements.delete(oldest.value);
      }
      this.statements.set(shape, statement);
    }
    return runOnConnection(q, statement.sql, statement.bindings);
  }
}

let verifyKeys = false;

/**
 * Checks every reuse of a kept statement against a new build, throwing when they differ (the
 * key left out something the statement depends on). The test suite turns it on for every test.
 */
export function verifyKeyedReads(on: boolean): void {
  verifyKeys = on;
}

function verify(
  kept: { sql: string; bindings: readonly Key[] },
  build: () => Knex.QueryBuilder,
  key: string,
): void {
  const native = build().toSQL().toNative();
  if (
    native.sql !== kept.sql ||
    JSON.stringify(native.bindings) !== JSON.stringify(kept.bindings)
  ) {
    throw new Error(`KeyedRead: the key "${key}" does not decide its statement`);
  }
}

async function runOnConnection(q: Queryable, sql: string, keys: readonly Key[]): Promise<Row[]> {
  const client = q.client as PoolClient;
  const connection = await client.acquireConnection();
  try {
    client.emit('query', { sql, bindings: keys, method: 'select' });
    if (clientDialect(q) === 'sqlite')
      return (connection as SqliteConnection).prepare(sql).all(keys);
    return await execute(connection as MysqlConnection, sql, keys);
  } finally {
    await client.releaseConnection(connection);
  }
}

function execute(connection: MysqlConnection, sql: string, keys: readonly Key[]): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    const done: Callback = (error, rows) => (error ? reject(error) : resolve(rows as Row[]));
    connection.execute(sql, keys, (error, rows) => {
      if (error?.code === TOO_MANY_STATEMENTS) connection.query(sql, keys, done);
      else done(error, rows);
    });
  });
}
