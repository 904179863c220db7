import { ConfigError, loadConfig } from '../../../src/config/config';

/** The REST adapter's settings: MAX_BODY_BYTES, CORS_ORIGINS, NAMESPACE_ALIASES. */
describe('REST configuration', () => {
  it('has documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      maxBodyBytes: 1_048_576,
      corsOrigins: [],
      namespaceAliases: [],
    });
  });

  it('reads CSV lists, ignoring spaces and empty items', () => {
    expect(
      loadConfig({
        CORS_ORIGINS: ' https://a.example, http://b.example:8080 ,',
        NAMESPACE_ALIASES: 'tribe/events/v1',
        MAX_BODY_BYTES: '2048',
      }),
    ).toMatchObject({
      corsOrigins: ['https://a.example', 'http://b.example:8080'],
      namespaceAliases: ['tribe/events/v1'],
      maxBodyBytes: 2048,
    });
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it.each([
    ['MAX_BODY_BYTES', '0'],
    ['MAX_BODY_BYTES', 'big'],
    ['CORS_ORIGINS', 'app.example'],
    ['CORS_ORIGINS', 'https://app.example/path'],
    ['NAMESPACE_ALIASES', 'tribe'],
    ['NAMESPACE_ALIASES', 'calendar/events/v1'],
    ['NAMESPACE_ALIASES', '/tribe/events/v1'],
  ])('rejects %s=%s with one sentence naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must .*\\.$`));
  });
});
