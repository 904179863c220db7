import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../src/config/config';
import { readEnvironment, resolveConfig } from '../../src/config/sources';

/**
 * How every entry point loads its configuration (src/config/sources.ts): overrides (CLI flags),
 * then the environment, then `.env` in the working directory (or ENV_FILE), then defaults.
 */

describe('configuration sources', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-config-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function writeEnv(name: string, text: string): void {
    fs.writeFileSync(path.join(dir, name), text);
  }

  it('uses the defaults when there is no .env', () => {
    expect(resolveConfig({ env: {}, cwd: dir })).toMatchObject({
      port: 4000,
      databaseUrl: 'sqlite:./data/calendar.sqlite',
      siteUrl: 'http://localhost:4000',
    });
  });

  it('a server started with only a .env gets its values (comments, quotes)', () => {
    writeEnv(
      '.env',
      [
        '# the calendar',
        'PORT=8081',
        'DATABASE_URL="sqlite:./data/from-dotenv.sqlite"',
        "SITE_URL='https://dotenv.example/'",
        'SITE_TIMEZONE=Europe/Paris # inline comment',
        '',
      ].join('\n'),
    );
    expect(resolveConfig({ env: {}, cwd: dir })).toMatchObject({
      port: 8081,
      databaseUrl: 'sqlite:./data/from-dotenv.sqlite',
      siteUrl: 'https://dotenv.example',
      siteTimezone: 'Europe/Paris',
    });
  });

  it('the environment wins over .env, which fills in what the environment leaves unset', () => {
    writeEnv('.env', 'PORT=8081\nSITE_URL=https://dotenv.example\n');
    const config = resolveConfig({ env: { SITE_URL: 'https://env.example' }, cwd: dir });
    expect(config).toMatchObject({ port: 8081, siteUrl: 'https://env.example' });
    // Set but empty is set: the variable's default, as `node --env-file` would leave it.
    expect(resolveConfig({ env: { SITE_URL: '' }, cwd: dir }).siteUrl).toBe(
      'http://localhost:8081',
    );
  });

  it('overrides (the CLI flags) win over the environment and .env', () => {
    writeEnv('.env', 'DATABASE_URL=sqlite:dotenv.sqlite\nSITE_URL=https://dotenv.example\n');
    const config = resolveConfig({
      env: { DATABASE_URL: 'sqlite:env.sqlite', SITE_URL: 'https://env.example' },
      cwd: dir,
      overrides: { DATABASE_URL: 'sqlite:flag.sqlite', SITE_URL: 'https://flag.example' },
    });
    expect(config).toMatchObject({
      databaseUrl: 'sqlite:flag.sqlite',
      siteUrl: 'https://flag.example',
    });
  });

  it('ENV_FILE names another file, relative to the working directory, instead of .env', () => {
    writeEnv('.env', 'SITE_URL=https://dotenv.example\n');
    writeEnv('prod.env', 'SITE_URL=https://prod.example\n');
    expect(resolveConfig({ env: { ENV_FILE: 'prod.env' }, cwd: dir }).siteUrl).toBe(
      'https://prod.example',
    );
    expect(
      resolveConfig({ env: { ENV_FILE: path.join(dir, 'prod.env') }, cwd: os.tmpdir() }).siteUrl,
    ).toBe('https://prod.example');
  });

  it('a missing ENV_FILE stops with one sentence naming the variable', () => {
    expect(() => resolveConfig({ env: { ENV_FILE: 'nope.env' }, cwd: dir })).toThrow(ConfigError);
    expect(() => resolveConfig({ env: { ENV_FILE: 'nope.env' }, cwd: dir })).toThrow(
      /^ENV_FILE must name a readable file, got ".*nope\.env" \(ENOENT\)\.$/,
    );
  });

  it('values from .env are checked like any other (one sentence naming the variable)', () => {
    writeEnv('.env', 'SITE_TIMEZONE=Nowhere/Land\n');
    expect(() => resolveConfig({ env: {}, cwd: dir })).toThrow(/^SITE_TIMEZONE must be an IANA/);
  });

  it('readEnvironment gives the merged variables, for the cluster workers', () => {
    writeEnv('.env', 'PORT=8081\nHOST=127.0.0.1\n');
    expect(
      readEnvironment({ env: { HOST: '::1', GONE: undefined }, cwd: dir, overrides: {} }),
    ).toEqual({ PORT: '8081', HOST: '::1' });
  });
});
