import { ConfigError, loadConfig } from '../../src/config';

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
    });
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

  it('accepts MySQL URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'mysql://u:p@db:3306/calendar' }).databaseUrl).toBe(
      'mysql://u:p@db:3306/calendar',
    );
  });
});
