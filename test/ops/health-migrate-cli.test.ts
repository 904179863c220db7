import { spawn } from 'node:child_process';
import path from 'node:path';
import { createApp } from '../../src/http/server';
import { describeEachDb } from '../support/harness';

/**
 * `npm run migrate` and `npm run migrate:rollback` (src/db/migrate-cli.ts) against the database of
 * DATABASE_URL, seen through /readyz. The npm scripts run the compiled dist/src/db/migrate-cli.js
 * (built by scripts/build.mjs); this test runs the source through tsx, so it needs no build.
 */

const root = path.join(__dirname, '..', '..');

function migrateCli(
  command: string,
  databaseUrl: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [require.resolve('tsx/cli'), 'src/db/migrate-cli.ts', command],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

describeEachDb('npm run migrate / migrate:rollback', (env) => {
  it('rolls back the last batch, then re-applies it; /readyz follows', async () => {
    const url = env.config.databaseUrl;
    const readyz = async () => {
      // A fresh app each time: the readiness check caches the migration state briefly.
      const app = await createApp({ config: env.config, db: env.db });
      const response = await app.yoga.fetch('http://localhost/readyz');
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    expect((await readyz()).status).toBe(200);
    const before: string[] = (await env.db('knex_migrations').orderBy('id')).map((r) => r.name);

    const app = await createApp({ config: env.config, db: env.db });
    const rollback = await migrateCli('rollback', url);
    expect(rollback).toMatchObject({ code: 0 });
    expect(rollback.out).toMatch(/^Rolled back: /m);
    // The harness migrated in one batch: the whole schema went.
    const notReady = await app.yoga.fetch('http://localhost/readyz');
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as { pending: string[] }).pending).toEqual(before);

    const latest = await migrateCli('latest', url);
    expect(latest).toMatchObject({ code: 0 });
    expect(latest.out).toContain(`Applied: ${before.join(', ')}`);
    expect((await readyz()).body).toEqual({ status: 'ready' });
    expect((await migrateCli('latest', url)).out).toContain('Nothing to do.');
    const usage = await migrateCli('sideways', url);
    expect(usage.code).toBe(2);
    expect(usage.out).toMatch(/Unknown migrate command "sideways"/);
  }, 120_000);
});
