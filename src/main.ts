import { createServer } from 'node:http';
import { ConfigError, loadConfig } from './config';
import { createDb } from './db/knex';
import { migrateLatest } from './db/migrate';
import { createApp } from './server';
import type { BootstrapResult } from './services/users';

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

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb({ databaseUrl: config.databaseUrl, poolMax: config.dbPoolMax });
  const applied = await migrateLatest(db);
  if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(', ')}`);
  const app = await createApp({ config, db });
  reportBootstrap(app.bootstrap);
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
