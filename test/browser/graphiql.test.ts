import type { Browser, BrowserContext } from 'playwright-core';
import { TestEnv } from '../support/harness';
import {
  describeWithBrowser,
  launchBrowser,
  listen,
  watchProblems,
  type Listening,
} from './browser';

/**
 * GraphiQL at GET /graphql in a real browser, under the security headers the server sends. Every
 * request the page (or its editor workers) makes is watched: one to any other address than the
 * server's fails the test, and is refused, so what renders is what the server itself serves.
 * The editor then runs its default query against /graphql and shows the answer.
 */

// A browser on a loaded 2-core machine: generous per-test time.
jest.setTimeout(120_000);

describeWithBrowser('GraphiQL in headless Chromium', () => {
  const env = new TestEnv('sqlite');
  let served: Listening;
  let browser: Browser;

  beforeAll(async () => {
    await env.start();
    await env.ok(
      `mutation ($input: EventInput!) { create_event(input: $input) { id } }`,
      {
        input: { title: 'Offline Jazz', start_date: 'tomorrow 19:00', end_date: 'tomorrow 22:00' },
      },
      { as: 'administrator' },
    );
    served = await listen(env.app);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await env.stop();
  });

  /** A context that refuses, and records, every request not addressed to the server. */
  async function offlineContext(outside: string[]): Promise<BrowserContext> {
    const context = await browser.newContext();
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(`${served.baseUrl}/`)) await route.continue();
      else {
        outside.push(url);
        await route.abort('blockedbyclient');
      }
    });
    return context;
  }

  it('loads only from the server, under its Content-Security-Policy, and runs a query', async () => {
    const outside: string[] = [];
    const context = await offlineContext(outside);
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const problems = watchProblems(page);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const response = await page.goto(`${served.baseUrl}/graphql`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).not.toMatch(/https?:/);
    expect(await page.title()).toMatch(/^Events calendar GraphQL/);

    // The editor renders, with the service's example operation in its query editor.
    await page.waitForSelector('.graphiql-container .graphiql-execute-button');
    await page.waitForFunction(() => document.body.innerText.includes('UpcomingEvents'));

    // Run it: the answer comes from /graphql and is shown in the result pane.
    const answered = page.waitForResponse(
      (r) => r.url() === `${served.baseUrl}/graphql` && r.request().method() === 'POST',
    );
    await page.click('.graphiql-execute-button');
    const result = await answered;
    expect(result.status()).toBe(200);
    expect(await result.text()).toContain('Offline Jazz');
    // Monaco spaces words with no-break spaces.
    await page.waitForFunction(() =>
      document.body.innerText.replace(/\u00a0/g, ' ').includes('"title": "Offline Jazz"'),
    );

    expect(outside).toEqual([]);
    expect(
      requested.every((url) => url.startsWith(served.baseUrl) || url.startsWith('data:')),
    ).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
