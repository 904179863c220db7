import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');

describe('start-up with invalid configuration', () => {
  it('stops with one clear sentence naming the variable, and exit code 1', () => {
    const result = spawnSync(process.execPath, [require.resolve('tsx/cli'), 'src/main.ts'], {
      cwd: root,
      env: { ...process.env, SITE_TIMEZONE: 'Nowhere/Land', DATABASE_URL: 'sqlite::memory:' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Configuration error: SITE_TIMEZONE must be an IANA time zone such as "Europe/Paris", got "Nowhere/Land".',
    );
  });
});
