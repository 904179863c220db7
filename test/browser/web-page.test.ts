import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TestEnv } from '../support/harness';
import {
  ARTIFACTS,
  describeWithBrowser,
  launchBrowser,
  listen,
  watchProblems,
  type Listening,
} from './browser';
import { colourStats, decodePng, hasColour, pngSize } from './png';

/**
 * Acceptance of the web page (issue 7): the page at / of a real server, rendered by headless
 * Chromium, shows the events this test created through the REST API — with filters, paging and
 * a screenshot check. The server runs on SQLite with a non-default API_ROOT, so the page must
 * use the address the server wrote into it.
 */

const API_ROOT = '/cal-api';
const VIEWPORT = { width: 1280, height: 900 };
const XSS_TITLE = 'Rock & <Roll> <img src=x onerror="window.__pwned=1">';

// A browser on a loaded 2-core machine: generous per-test time.
jest.setTimeout(90_000);

describeWithBrowser('the web page in headless Chromium', () => {
  const env = new TestEnv('sqlite', { API_ROOT, SITE_TIMEZONE: 'Europe/Paris' });
  let served: Listening;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  async function post(resource: string, body: Record<string, unknown>): Promise<any> {
    const response = await env.app.yoga.fetch(
      `http://localhost${API_ROOT}/calendar/events/v1/${resource}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(await env.authHeaders('administrator')),
        },
        body: JSON.stringify(body),
      },
    );
    const json = await response.json();
    if (response.status !== 201) throw new Error(`POST ${resource}: ${JSON.stringify(json)}`);
    return json;
  }

  beforeAll(async () => {
    await env.start();
    // "Now" is 2026-11-21 08:00 UTC (the harness clock): these are upcoming, but the first.
    const hall = await post('venues', {
      venue: 'Main Hall',
      city: 'Springfield',
      country: 'France',
    });
    const event = (fields: Record<string, unknown>) => post('events', fields);
    await event({
      title: 'Old Gig',
      start_date: '2026-11-01 20:00:00',
      end_date: '2026-11-01 23:00:00',
      categories: ['Concerts'],
    });
    await event({
      title: 'Jazz Night',
      start_date: '2026-12-05 19:00:00',
      end_date: '2026-12-05 22:30:00',
      timezone: 'Europe/Paris',
      venue: hall.id,
      cost: '15',
      categories: ['Concerts'],
    });
    await event({
      title: 'Pottery Workshop',
      start_date: '2026-12-07 00:00:00',
      end_date: '2026-12-07 23:59:59',
      all_day: true,
      categories: ['Workshops'],
    });
    await event({
      title: XSS_TITLE,
      start_date: '2026-12-10 20:00:00',
      end_date: '2026-12-10 23:00:00',
      timezone: 'America/New_York',
      categories: ['Concerts'],
    });
    await event({
      title: 'Winter Market',
      start_date: '2026-12-12 10:00:00',
      end_date: '2026-12-13 18:00:00',
      timezone: 'Europe/Paris',
      venue: hall.id,
      categories: ['Markets'],
    });
    await event({
      title: 'Secret Draft',
      status: 'draft',
      start_date: '2026-12-08 10:00:00',
      end_date: '2026-12-08 11:00:00',
    });
    served = await listen(env.app);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await env.stop();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: VIEWPORT, locale: 'en-US' });
    page.setDefaultTimeout(20_000);
    problems = watchProblems(page);
  });

  afterEach(async () => {
    await page.close();
  });

  /** Waits until the list has settled (not loading) and returns the titles shown. */
  async function titles(): Promise<string[]> {
    try {
      await page.waitForSelector('#events[aria-busy="false"]', { state: 'attached' });
    } catch (error) {
      // Say why: a blocked script or a failed request shows up here.
      throw new Error(`${(error as Error).message}\npage problems: ${JSON.stringify(problems)}`);
    }
    return page.locator('#events > li h3').allTextContents();
  }

  async function open(query = ''): Promise<string[]> {
    await page.goto(`${served.baseUrl}/${query}`);
    return titles();
  }

  /** Changes the form, submits it and waits for the new list. */
  async function submit(change: () => Promise<void>): Promise<string[]> {
    await change();
    const done = page.waitForResponse((r) => r.url().includes('/events?'));
    await page.getByRole('button', { name: 'Show events' }).click();
    await done;
    return titles();
  }

  it('shows the upcoming published events created by the test, in date order', async () => {
    expect(await open()).toEqual(['Jazz Night', 'Pottery Workshop', XSS_TITLE, 'Winter Market']);
    await expect(page.title()).resolves.toBe('Upcoming events');
    expect(await page.locator('#status').textContent()).toBe('4 events found.');
    expect(problems).toEqual([]);
  });

  it('shows dates in the event’s own time zone, the venue, the cost and the categories', async () => {
    await open();
    const card = (title: string) => page.locator('#events > li', { hasText: title });
    const jazz = card('Jazz Night');
    expect(await jazz.locator('.when').textContent()).toBe('Sat, Dec 5, 2026, 19:00 – 22:30 CET');
    expect(await jazz.locator('time').getAttribute('datetime')).toBe('2026-12-05T18:00:00Z');
    expect(await jazz.locator('.venue').textContent()).toBe(
      'Venue: Main Hall, Springfield, France',
    );
    expect(await jazz.locator('.cost').textContent()).toBe('Cost: $15');
    expect(await jazz.locator('.categories li').allTextContents()).toEqual(['Concerts']);
    expect(await card('Pottery Workshop').locator('.when').textContent()).toBe(
      'Mon, Dec 7, 2026, all day',
    );
    expect(await card('Rock').locator('.when').textContent()).toBe(
      'Thu, Dec 10, 2026, 20:00 – 23:00 EST',
    );
    expect(await card('Winter Market').locator('.when').textContent()).toBe(
      'Sat, Dec 12, 2026, 10:00 – Sun, Dec 13, 2026, 18:00 CET',
    );
    expect(await card('Pottery Workshop').locator('.venue').count()).toBe(0);
  });

  it('renders data as text: markup in a title is shown, never run', async () => {
    await open();
    expect(await page.locator('#events img').count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.locator('#events > li h3', { hasText: 'Rock' }).textContent()).toBe(
      XSS_TITLE,
    );
  });

  it('filters by search, category and date range, and keeps the filters in the address', async () => {
    await open();
    expect(await submit(() => page.getByLabel('Search').fill('jazz'))).toEqual(['Jazz Night']);
    expect(new URL(page.url()).searchParams.get('search')).toBe('jazz');

    await page.getByLabel('Search').fill('');
    await page.waitForSelector('#f-category option[value="workshops"]', { state: 'attached' });
    expect(
      await submit(async () => {
        await page.getByLabel('Category').selectOption({ label: 'Workshops' });
      }),
    ).toEqual(['Pottery Workshop']);

    expect(
      await submit(async () => {
        await page.getByLabel('Category').selectOption('');
        await page.getByLabel('From').fill('2026-12-09');
        await page.getByLabel('To').fill('2026-12-11');
      }),
    ).toEqual([XSS_TITLE]);

    expect(
      await submit(async () => {
        await page.getByLabel('From').fill('2026-12-20');
        await page.getByLabel('To').fill('2026-12-31');
      }),
    ).toEqual([]);
    expect(await page.locator('#status').textContent()).toBe(
      'No upcoming events match these filters.',
    );

    // A shared address opens with its filters applied.
    expect(await open('?categories=concerts')).toEqual(['Jazz Night', XSS_TITLE]);
    expect(await page.getByLabel('Category').inputValue()).toBe('concerts');
    expect(problems).toEqual([]);
  });

  it('pages through next_rest_url and previous_rest_url', async () => {
    await open();
    expect(
      await submit(() =>
        page
          .getByLabel('Per page')
          .selectOption('5')
          .then(() => undefined),
      ),
    ).toHaveLength(4);
    expect(await open('?per_page=5')).toHaveLength(4);
    // Two per page, a size the menu does not offer, asked for through the address.
    expect(await open('?per_page=2')).toEqual(['Jazz Night', 'Pottery Workshop']);
    expect(await page.locator('#page-info').textContent()).toBe('Page 1 of 2 (4 events)');
    expect(await page.locator('#prev').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForFunction(
      () => document.getElementById('page-info')?.textContent === 'Page 2 of 2 (4 events)',
    );
    expect(await titles()).toEqual([XSS_TITLE, 'Winter Market']);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await page.locator('#next').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.waitForFunction(
      () => document.getElementById('page-info')?.textContent === 'Page 1 of 2 (4 events)',
    );
    expect(await titles()).toEqual(['Jazz Night', 'Pottery Workshop']);
    expect(problems).toEqual([]);
  });

  it('renders a non-blank screenshot of the expected size', async () => {
    await open();
    // The style sheet applied (the page's CSP lets it load): the header has the accent colour.
    expect(
      await page.locator('.site-header').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(31, 95, 191)');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'web-page.png');
    await page.screenshot({ path: file });
    const png = fs.readFileSync(file);
    expect(pngSize(png)).toEqual(VIEWPORT);
    const decoded = decodePng(png);
    const { distinct, dominantShare } = colourStats(decoded);
    expect(distinct).toBeGreaterThan(50); // text anti-aliasing, the header, the cards
    expect(dominantShare).toBeLessThan(0.9); // not one flat colour
    expect(hasColour(decoded, '#1f5fbf')).toBe(true);
    expect(problems).toEqual([]);
  });
});
