import { loadConfig } from '../../src/config/config';
import { createDb, type Db } from '../../src/db/knex';
import { createApp, type App } from '../../src/http/server';
import type { Request } from './scenarios';

/**
 * SQL statements per request, counted in-process: the same application (createApp) on the same
 * database, one `yoga.fetch` of the scenario's request, Knex's `query` events counted around it.
 * It is the code path the HTTP server runs, minus the socket.
 */
export class QueryCounter {
  private constructor(
    private readonly db: Db,
    private readonly app: App,
  ) {}

  static async open(env: Record<string, string>): Promise<QueryCounter> {
    const config = loadConfig({ ...process.env, ...env });
    const db = createDb({ databaseUrl: config.databaseUrl, poolMax: 2 });
    return new QueryCounter(db, await createApp({ config, db }));
  }

  async count(request: Request): Promise<{ queries: number; status: number }> {
    let queries = 0;
    const listener = (): void => {
      queries++;
    };
    this.db.on('query', listener);
    try {
      const response = await this.app.yoga.fetch(`http://localhost${request.path}`, {
        method: request.method,
        // A copy: the fetch ponyfill adds `content-length` to the headers object it is given,
        // which would then go out with every load-generator request of this scenario.
        headers: { ...request.headers },
        body: request.body ? request.body(1_000_000) : undefined,
      });
      await response.text();
      return { queries, status: response.status };
    } finally {
      this.db.removeListener('query', listener);
    }
  }

  close(): Promise<void> {
    return this.db.destroy();
  }
}
