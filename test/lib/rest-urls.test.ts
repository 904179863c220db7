import { loadConfig } from '../../src/config';
import { NAMESPACE, namespaceUrl, restUrl } from '../../src/lib';

/**
 * REST addresses start with their namespace's URL, kept per site URL, API root and namespace
 * (src/lib/urls.ts): each must still follow the configuration it is asked for.
 */

describe('namespaceUrl', () => {
  const config = loadConfig({ SITE_URL: 'https://cal.example.org/site', API_ROOT: '/api' });

  it('is the site, the API root and the namespace', () => {
    expect(namespaceUrl(config)).toBe(`https://cal.example.org/site/api/${NAMESPACE}`);
    expect(namespaceUrl(config, 'tribe/events/v1')).toBe(
      'https://cal.example.org/site/api/tribe/events/v1',
    );
    expect(restUrl(config, 'events/7', 'tribe/events/v1')).toBe(
      'https://cal.example.org/site/api/tribe/events/v1/events/7',
    );
  });

  it('follows a configuration whose site or API root changed', () => {
    const changing = { ...config };
    expect(namespaceUrl(changing)).toBe(`https://cal.example.org/site/api/${NAMESPACE}`);
    changing.siteUrl = 'http://other.test';
    expect(namespaceUrl(changing)).toBe(`http://other.test/api/${NAMESPACE}`);
    changing.apiRoot = '/wp-json';
    expect(restUrl(changing, 'venues')).toBe(`http://other.test/wp-json/${NAMESPACE}/venues`);
    // A copy of the configuration with another site gets its own address.
    expect(namespaceUrl({ ...config, siteUrl: 'http://third.test' })).toBe(
      `http://third.test/api/${NAMESPACE}`,
    );
  });
});
