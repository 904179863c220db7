import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { onPrimaryShutdown, runPrimary } from './http/cluster';
import { ConfigError, loadConfig, readEnvironment, type Config } from './config';
import { createDb, redactedUrl, type Db, migrateWhenReachable, StartupError } from './db';
import { createLogger, type Logger } from './http/logger';
import { answerClientErrors, serverOptions } from './http/server-options';
import { createApp } from './http/server';
import { bootstrapAdmin, type BootstrapResult } from './users';

/**
 * The process: configuration (environment, `.env`, defaults) → database (retried while
 * unreachable) → migrations → HTTP server; SIGTERM/SIGINT drain in-flight requests, close the
 * pool and exit (docs/operations.md "Start-up and shutdown"). With WORKERS>1 the first steps run
 * once in the cluster primary, and the workers it forks only serve (src/http/cluster.ts).
 */

/**
 * Life-cycle lines (start-up, the first administrator, listening, shutdown) are plain sentences
 * for the person or supervisor watching the process, whatever LOG_LEVEL says; request logs are
 * the JSON lines of src/http/logger.ts.
 */

/** Says what start-up did about the first administrator; a generated token is shown only here. */
function reportBootstrap(bootstrap: BootstrapResult): void {
  if (!bootstrap.created) {
    if (bootstrap.adminTokenIgnored) {
      console.warn(
        'ADMIN_TOKEN is set but users already exist: it is only used on the first start. ' +
          'Create tokens with `npm run calendar -- token:add --login <login>`.',
      );
    }
    if (bootstrap.noCredentials) {
      console.warn(
        'No user has a live API token or application password, so nobody can write. ' +
          'Create one with `npm run calendar -- token:add --login <login>` (see `user:list`).',
      );
    }
    return;
  }
  if (bootstrap.token === null) {
    console.log(
      `Created the administrator "${bootstrap.login}"; its bearer token is the value of ADMIN_TOKEN.`,
    );
    return;
  }
  const bar = '='.repeat(78);
  console.log(
    [
      bar,
      `  FIRST START: created the administrator "${bootstrap.login}".`,
      '  Its API token is shown ONCE, now. Store it safely; it cannot be shown again:',
      '',
      `    ${bootstrap.token}`,
      '',
      '  Use it as:  Authorization: Bearer <token>',
      '  Lost it? Create another: npm run calendar -- token:add --login admin',
      bar,
    ].join('\n'),
  );
}

/**
 * Graceful shutdown: stop accepting connections, close idle keep-alive ones (and each one as soon
 * as its response is done), let in-flight requests finish, then close the pool and exit 0. After
 * SHUTDOWN_TIMEOUT_MS the remaining connections are cut and the process exits 1; a second
 * signal exits 1 at once.
 */
function handleSignals(server: Server, db: Db, config: Config): void {
  let inFlight = 0;
  server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => inFlight--);
  });
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) {
      console.warn(`${signal} received again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    let forced = false;
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => {
      forced = true;
      console.warn(
        `${inFlight} request(s) still running after SHUTDOWN_TIMEOUT_MS=` +
          `${config.shutdownTimeoutMs} ms: closing their connections.`,
      );
      server.closeAllConnections();
      // A query stuck on a dead connection must not keep the process alive either.
      setTimeout(() => process.exit(1), 2_000).unref();
    }, config.shutdownTimeoutMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(deadline);
      void db
        .destroy()
        .catch((err: unknown) => console.warn(`Closing the database pool failed: ${String(err)}`))
        .finally(() => {
          console.log(
            forced
              ? 'Stopped (requests cut): database pool closed.'
              : 'Stopped: every request answered, database pool closed.',
          );
          process.exit(forced ? 1 : 0);
        });
    });
    server.closeIdleConnections();
    // Only now, with the listening socket closed, is "no new connections" true.
    console.log(
      `${signal} received: shutting down. No new connections; waiting for ${inFlight} ` +
        `request(s) in flight (at most SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs} ms).`,
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  // A cluster worker also gets the primary's signal forwarded. Ctrl-C signals the whole process
  // group, so that first forward may repeat a signal this worker already had: not "again".
  onPrimaryShutdown((signal, again) => {
    if (again || !stopping) shutdown(signal);
  });
}

/** Opens the pool and applies pending migrations, retried while the database is unreachable. */
async function openMigrated(config: Config, logger: Logger): Promise<Db> {
  const db = openDb(config, logger);
  let applied: string[];
  try {
    applied = await migrateWhenReachable(db, {
      databaseUrl: config.databaseUrl,
      timeoutMs: config.dbStartupTimeoutMs,
      onRetry: ({ attempt, retryInMs, reason }) =>
        console.warn(
          `Database not reachable at ${redactedUrl(config.databaseUrl)} (attempt ${attempt}): ` +
            `${reason}. Retrying in ${(retryInMs / 1000).toFixed(1)} s.`,
        ),
    });
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
  if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(', ')}`);
  return db;
}

function openDb(config: Config, logger: Logger): Db {
  return createDb({
    databaseUrl: config.databaseUrl,
    poolMax: config.dbPoolMax,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    warn: (message) => logger.warn(message),
  });
}

/** Builds the app on `db` and listens; a cluster worker leaves the first administrator alone. */
async function serve(config: Config, db: Db, logger: Logger): Promise<void> {
  const app = await createApp({ config, db, logger, bootstrap: !cluster.isWorker });
  reportBootstrap(app.bootstrap);
  // Parser-level limits (header size, slow clients) answered with the contract's envelope.
  const server = answerClientErrors(createServer(serverOptions(config), app.yoga), config);
  server.keepAliveTimeout = 65_000;
  server.on('error', (err: NodeJS.ErrnoException) => {
    const reason = err.code === 'EADDRINUSE' ? 'the address is already in use' : err.message;
    console.error(`Cannot listen on ${config.host}:${config.port}: ${reason}.`);
    void db.destroy().finally(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = address && typeof address === 'object' ? address.port : config.port;
    if (cluster.isWorker) {
      // The primary says "listening" once every worker is; this names the process.
      console.log(`Worker ${process.pid} listening on http://${config.host}:${port}`);
      return;
    }
    console.log(`Calendar service listening on http://${config.host}:${port}`);
    console.log(`  GraphQL: ${config.siteUrl}/graphql`);
  });
  handleSignals(server, db, config);
}

async function main(): Promise<void> {
  // Environment, then `.env` (or ENV_FILE), then defaults: src/config/sources.ts.
  const env = readEnvironment();
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  if (cluster.isWorker) {
    // Request logs say which worker answered; the primary has migrated already.
    const workerLogger = logger.child({ pid: process.pid });
    return serve(config, openDb(config, workerLogger), workerLogger);
  }
  const db = await openMigrated(config, logger);
  if (config.workers === 1) return serve(config, db, logger);
  // Once, before any worker exists: no race for the first administrator, one token printed.
  reportBootstrap(await bootstrapAdmin(db, new Date(), config.adminToken));
  await db.destroy();
  runPrimary(config, env);
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError
      ? `Configuration error: ${err.message}`
      : err instanceof StartupError || err instanceof Error
        ? err.message
        : String(err),
  );
  process.exit(1);
});
