import { describeDbError, pendingMigrations, type Db } from '../db';

/**
 * Readiness (`GET /readyz`): the database answers a trivial query and no migration is pending.
 * Probes are frequent (every few seconds, from every load balancer and orchestrator), so the
 * migration check — a read of the migrations table and a listing of `migrations/` — is cached
 * for `migrationsCacheMs`, and concurrent probes share one check in flight. The query is bounded
 * by `timeoutMs`: a database that does not answer is "not ready", not a hanging probe.
 */

export interface ReadinessOptions {
  /** How long a migration check result is reused (default 5 s). */
  migrationsCacheMs?: number;
  /** A check not done in this many ms answers not ready (default 2 s). */
  timeoutMs?: number;
}

export type Readiness = { ready: true } | { ready: false; reason: string; pending?: string[] };

export class ReadinessCheck {
  private readonly cacheMs: number;
  private readonly timeoutMs: number;
  private migrations: { pending: string[]; at: number } | undefined;
  private inFlight: Promise<Readiness> | undefined;

  constructor(
    private readonly db: Db,
    options: ReadinessOptions = {},
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.cacheMs = options.migrationsCacheMs ?? 5_000;
    this.timeoutMs = options.timeoutMs ?? 2_000;
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
    try {
      await this.db.raw('select 1');
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
    return { ready: true };
  }

  private async pendingMigrations(): Promise<string[]> {
    const now = this.clock();
    if (this.migrations && now - this.migrations.at < this.cacheMs) return this.migrations.pending;
    const pending = await pendingMigrations(this.db);
    this.migrations = { pending, at: this.clock() };
    return pending;
  }
}
