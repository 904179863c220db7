import os from 'node:os';
import { ConfigError, loadConfig } from '../../src/config/config';

describe('configuration', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      databaseUrl: 'sqlite:./data/calendar.sqlite',
      siteUrl: 'http://localhost:4000',
      siteTimezone: 'UTC',
      apiRoot: '/wp-json',
      perPageDefault: 10,
      perPageMax: 50,
      responseCache: 'on',
      responseCacheMb: 16,
    });
  });

  it('reads RESPONSE_CACHE_MB within 1-4096, refusing anything else', () => {
    expect(loadConfig({ RESPONSE_CACHE_MB: '64' }).responseCacheMb).toBe(64);
    for (const bad of ['0', '4097', 'lots', '1.5']) {
      expect(() => loadConfig({ RESPONSE_CACHE_MB: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ RESPONSE_CACHE_MB: bad })).toThrow(/RESPONSE_CACHE_MB/);
    }
  });

  it('derives SITE_URL from PORT and trims trailing slashes', () => {
    expect(loadConfig({ PORT: '8080' }).siteUrl).toBe('http://localhost:8080');
    expect(loadConfig({ SITE_URL: 'https://cal.example/', API_ROOT: '/api/' })).toMatchObject({
      siteUrl: 'https://cal.example',
      apiRoot: '/api',
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://x/y'],
    ['SITE_URL', 'not a url'],
    ['SITE_URL', 'ftp://cal.example'],
    ['SITE_TIMEZONE', 'Mars/Olympus'],
    ['API_ROOT', 'wp-json'],
    ['PER_PAGE_MAX', '0'],
    ['CURRENCY_POSITION', 'middle'],
    ['ADMIN_TOKEN', 'too-short'],
    ['ADMIN_TOKEN', 'long enough but has spaces'],
    ['WORKERS', '0'],
    ['WORKERS', '-2'],
    ['WORKERS', '1.5'],
    ['WORKERS', 'all'],
    ['WORKERS', '1025'],
  ])('rejects %s=%s with one sentence naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must`));
  });

  it('reads ADMIN_TOKEN without ever echoing it in an error', () => {
    expect(loadConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token' }).adminToken).toBe(
      'a-long-enough-admin-token',
    );
    expect(loadConfig({}).adminToken).toBeUndefined();
    expect(() => loadConfig({ ADMIN_TOKEN: 'secret-but-short' })).toThrow(
      'ADMIN_TOKEN must be at least 20 characters without spaces, got 16 character(s).',
    );
  });

  it('reads WORKERS: one process by default, a count, or auto (one per usable core)', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '' }).workers).toBe(1);
    expect(loadConfig({ WORKERS: '4' }).workers).toBe(4);
    expect(loadConfig({ WORKERS: ' 3 ' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(os.availableParallelism());
    expect(loadConfig({ WORKERS: 'AUTO' }).workers).toBe(os.availableParallelism());
    expect(() => loadConfig({ WORKERS: 'many' })).toThrow(
      'WORKERS must be "auto" or an integer between 1 and 1024, got "many".',
    );
  });

  it('refuses several workers on an in-memory SQLite database, which each would have alone', () => {
    expect(() => loadConfig({ WORKERS: '2', DATABASE_URL: 'sqlite::memory:' })).toThrow(
      /^WORKERS must be 1 with an in-memory SQLite database/,
    );
    expect(loadConfig({ WORKERS: '1', DATABASE_URL: 'sqlite::memory:' }).workers).toBe(1);
    expect(loadConfig({ WORKERS: '2', DATABASE_URL: 'sqlite:./data/x.sqlite' }).workers).toBe(2);
  });

  it('accepts MySQL URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'mysql://u:p@db:3306/calendar' }).databaseUrl).toBe(
      'mysql://u:p@db:3306/calendar',
    );
  });
});
