import type { Browser, Route } from 'playwright-core';
import { TestEnv } from '../support/harness';
import {
  describeWithBrowser,
  launchBrowser,
  listen,
  watchProblems,
  type Listening,
} from './browser';

/**
 * GraphiQL at GET /graphql in a real browser, under the security headers the server sends.
 * GraphiQL's files come from unpkg.com, which this machine cannot reach: the test serves
 * stand-ins for them (the bundle's stand-in runs a query against /graphql), so what is checked
 * is the page itself — its inline bootstrap scripts run, the CDN script loads, the query is
 * allowed — with no Content-Security-Policy violation.
 */

const STUB_BUNDLE = `
window.YogaGraphiQL = {
  renderYogaGraphiQL(root, options) {
    root.textContent = 'stand-in GraphiQL rendering';
    fetch(options.endpoint || '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    })
      .then((response) => response.json())
      .then((result) => {
        root.textContent = 'stand-in GraphiQL: ' + result.data.__typename;
      });
  },
};`;

async function fulfilCdn(route: Route): Promise<void> {
  const url = route.request().url();
  if (url.endsWith('yoga-graphiql.umd.js')) {
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: STUB_BUNDLE });
  } else if (url.endsWith('.js')) {
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
  } else if (url.endsWith('.css')) {
    await route.fulfill({ status: 200, contentType: 'text/css', body: '' });
  } else {
    await route.fulfill({ status: 204, body: '' });
  }
}

// A browser on a loaded 2-core machine: generous per-test time.
jest.setTimeout(90_000);

describeWithBrowser('GraphiQL in headless Chromium', () => {
  const env = new TestEnv('sqlite');
  let served: Listening;
  let browser: Browser;

  beforeAll(async () => {
    await env.start();
    served = await listen(env.app);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await env.stop();
  });

  it('renders under the server’s Content-Security-Policy and queries /graphql', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    const problems = watchProblems(page);
    await page.route(/^https:\/\/(unpkg\.com|raw\.githubusercontent\.com)\//, fulfilCdn);
    const response = await page.goto(`${served.baseUrl}/graphql`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    await page.waitForFunction(
      () => document.getElementById('root')?.textContent === 'stand-in GraphiQL: Query',
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});
