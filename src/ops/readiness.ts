import { describeDbError, pendingMigrations, type Db, type Dialect } from '../db';

/**
 * Readiness (`GET /readyz`): the database answers a trivial query and no migration is pending.
 * Probes are frequent (every few seconds, from every load balancer and orchestrator), so the
 * migration check — a read of the migrations table and a listing of `migrations/` — is cached
 * for `migrationsCacheMs`, and concurrent probes share one check in flight. The query is bounded
 * by `timeoutMs`: a database that does not answer is "not ready", not a hanging probe. On MySQL
 * the query names the server that answered (`@@hostname`, `@@port`: which node of a cluster this
 * instance's pool reached); a Galera node that is not synced with its cluster refuses it (1047),
 * so the instance leaves rotation until the node has rejoined.
 */

export interface ReadinessOptions {
  /** How long a migration check result is reused (default 5 s). */
  migrationsCacheMs?: number;
  /** A check not done in this many ms answers not ready (default 2 s). */
  timeoutMs?: number;
  /** `mysql`: the probe also names the database server (default: a bare `select 1`). */
  dialect?: Dialect;
}

/** The database server that answered the probe (MySQL family). */
export interface DatabaseNode {
  host: string;
  port: number;
}

export type Readiness =
  { ready: true; database?: DatabaseNode } | { ready: false; reason: string; pending?: string[] };

export class ReadinessCheck {
  private readonly cacheMs: number;
  private readonly timeoutMs: number;
  private readonly dialect: Dialect | undefined;
  private migrations: { pending: string[]; at: number } | undefined;
  private inFlight: Promise<Readiness> | undefined;

  constructor(
    private readonly db: Db,
    options: ReadinessOptions = {},
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.cacheMs = options.migrationsCacheMs ?? 5_000;
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.dialect = options.dialect;
  }

  check(): Promise<Readiness> {
    this.inFlight ??= this.run().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async run(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Readiness>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ready: false,
            reason: `the database did not answer within ${this.timeoutMs} ms`,
          }),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([this.probe(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async probe(): Promise<Readiness> {
    let database: DatabaseNode | undefined;
    try {
      database = await this.answeringNode();
    } catch (error) {
      return { ready: false, reason: `database unreachable: ${describeDbError(error)}` };
    }
    let pending: string[];
    try {
      pending = await this.pendingMigrations();
    } catch (error) {
      return {
        ready: false,
        reason: `cannot read the migration state: ${describeDbError(error)}`,
      };
    }
    if (pending.length) {
      return {
        ready: false,
        reason: `${pending.length} migration(s) pending (apply them: npm run migrate)`,
        pending,
      };
    }
    return database ? { ready: true, database } : { ready: true };
  }

  private async answeringNode(): Promise<DatabaseNode | undefined> {
    if (this.dialect !== 'mysql') {
      await this.db.raw('select 1');
      return undefined;
    }
    const [rows] = (await this.db.raw('select @@hostname as host, @@port as port')) as [
      { host: string; port: number | string }[],
    ];
    const row = rows[0];
    return row ? { host: String(row.host), port: Number(row.port) } : undefined;
  }

  private async pendingMigrations(): Promise<string[]> {
    const now = this.clock();
    if (this.migrations && now - this.migrations.at < this.cacheMs) return this.migrations.pending;
    const pending = await pendingMigrations(this.db);
    this.migrations = { pending, at: this.clock() };
    return pending;
  }
}
