import { createServer } from 'node:http';
import { ConfigError, loadConfig } from './config';
import { createDb } from './db/knex';
import { migrateLatest } from './db/migrate';
import { createApp } from './server';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb({ databaseUrl: config.databaseUrl, poolMax: config.dbPoolMax });
  const applied = await migrateLatest(db);
  if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(', ')}`);
  const app = await createApp({ config, db });
  const server = createServer(app.yoga);
  server.keepAliveTimeout = 65_000;
  server.on('error', (err: NodeJS.ErrnoException) => {
    const reason = err.code === 'EADDRINUSE' ? 'the address is already in use' : err.message;
    console.error(`Cannot listen on ${config.host}:${config.port}: ${reason}.`);
    void db.destroy().finally(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    console.log(`Calendar service listening on http://${config.host}:${config.port}`);
    console.log(`  GraphQL: ${config.siteUrl}/graphql`);
  });
  const shutdown = (signal: string): void => {
    console.log(`${signal} received, closing.`);
    server.close(() => void db.destroy().then(() => process.exit(0)));
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError
      ? `Configuration error: ${err.message}`
      : err instanceof Error
        ? err.message
        : String(err),
  );
  process.exit(1);
});
