import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../../src/http/server';
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
 * Acceptance of the calendar on the web (issues 7 and 22) in a real server, rendered by headless
 * Chromium: the server-rendered calendar at /events/ shows the events this test created through
 * the REST API — dates in each event's zone, filters, paging — and an event's page, its
 * password form, all without JavaScript, with no CSP violation, and on a phone. The server runs
 * with a non-default API_ROOT, so the pages' API links must follow it.
 */

const API_ROOT = '/cal-api';
const VIEWPORT = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 740 };
const XSS_TITLE = 'Rock & <Roll> <img src=x onerror="window.__pwned=1">';

// A browser on a loaded 2-core machine: generous per-test time.
jest.setTimeout(90_000);

describeWithBrowser('the calendar pages in headless Chromium', () => {
  const env = new TestEnv('sqlite', {
    API_ROOT,
    SITE_TIMEZONE: 'Europe/Paris',
    PER_PAGE_DEFAULT: '10',
  });
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
      address: '1 Main Street',
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
      description: '<p>Bring your <strong>dancing shoes</strong>.</p>',
      start_date: '2026-12-05 19:00:00',
      end_date: '2026-12-05 22:30:00',
      timezone: 'Europe/Paris',
      venue: hall.id,
      cost: '15',
      categories: ['Concerts'],
      tags: ['Live'],
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
    await event({
      title: 'Members Evening',
      description: 'The door code is 4321.',
      password: 'opensesame',
      start_date: '2026-12-20 19:00:00',
      end_date: '2026-12-20 21:00:00',
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

  async function open(target = '/events/'): Promise<string[]> {
    const response = await page.goto(`${served.baseUrl}${target}`);
    expect(response?.status()).toBe(200);
    return page.locator('.events > li h3').allTextContents();
  }

  const card = (title: string) => page.locator('.events > li', { hasText: title });

  it('lists the upcoming published events in date order, without JavaScript', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: VIEWPORT });
    const plain = await noScript.newPage();
    await plain.goto(`${served.baseUrl}/events/`);
    expect(await plain.locator('.events > li h3').allTextContents()).toEqual([
      'Jazz Night',
      'Pottery Workshop',
      XSS_TITLE,
      'Winter Market',
      'Members Evening',
    ]);
    await noScript.close();

    expect(await open()).toHaveLength(5);
    await expect(page.title()).resolves.toMatch(/^Upcoming events · /);
    expect((await page.locator('.count').textContent())?.trim()).toBe('5 events.');
    expect(problems).toEqual([]);
  });

  it('shows dates in the event’s own time zone, the venue, the cost and the categories', async () => {
    await open();
    const jazz = card('Jazz Night');
    expect(await jazz.locator('.when').textContent()).toBe('Sat, Dec 5, 2026, 19:00 – 22:30 CET');
    expect(await jazz.locator('time').getAttribute('datetime')).toBe('2026-12-05T19:00:00+01:00');
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
    // A protected event shows its title and date in lists, nothing else (as the API).
    expect(await card('Members Evening').locator('.venue, .cost, .categories').count()).toBe(0);
  });

  it('renders data as text: markup in a title is shown, never run', async () => {
    await open();
    expect(await page.locator('.events img').count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await card('Rock').locator('h3').textContent()).toBe(XSS_TITLE);
  });

  it('filters by category through a plain GET form, kept in the address', async () => {
    await open();
    await page.getByLabel('Category').selectOption({ label: 'Workshops' });
    await Promise.all([
      page.waitForURL(/category=workshops/),
      page.getByRole('button', { name: 'Show events' }).click(),
    ]);
    expect(await page.locator('.events > li h3').allTextContents()).toEqual(['Pottery Workshop']);
    // A shared address opens with its filter applied and selected.
    expect(await open('/events/?category=concerts')).toEqual(['Jazz Night', XSS_TITLE]);
    expect(await page.getByLabel('Category').inputValue()).toBe('concerts');
    expect(await open('/events/?tag=live')).toEqual(['Jazz Night']);
    expect(problems).toEqual([]);
  });

  it('pages with links, and shows a month grid', async () => {
    // Two per page, through the API's own per_page default.
    const config = { ...env.config, perPageDefault: 2 };
    const app = await createApp({ config, db: env.db, now: () => env.now, bootstrap: false });
    const other = await listen(app);
    try {
      await page.goto(`${other.baseUrl}/events/`);
      expect(await page.locator('.page-info').textContent()).toBe('Page 1 of 3');
      await page.getByRole('link', { name: 'Next page' }).click();
      await page.waitForURL(/page=2/);
      expect(await page.locator('.events > li h3').allTextContents()).toEqual([
        XSS_TITLE,
        'Winter Market',
      ]);
      await page.getByRole('link', { name: 'Previous page' }).click();
      expect(await page.locator('.events > li h3').allTextContents()).toEqual([
        'Jazz Night',
        'Pottery Workshop',
      ]);
    } finally {
      await other.close();
    }

    await page.goto(`${served.baseUrl}/events/?month=2026-12`);
    expect(await page.locator('h1').textContent()).toBe('Events in December 2026');
    const fifth = page.locator('.month-grid td', { hasText: 'Jazz Night' });
    // The day's number, and for screen readers what its link leads to.
    expect(await fifth.locator('.day-number').textContent()).toBe('5 December 2026: 1 event');
    expect(await page.locator('.month-grid').textContent()).not.toContain('Secret Draft');
    expect(problems).toEqual([]);
  });

  it('opens an event page from the list: details, JSON-LD, calendar links, no CSP violation', async () => {
    await open();
    await card('Jazz Night').getByRole('link', { name: 'Jazz Night' }).click();
    await page.waitForURL(/\/event\/jazz-night\/$/);
    expect(await page.locator('h1').textContent()).toBe('Jazz Night');
    expect(await page.locator('.description strong').textContent()).toBe('dancing shoes');
    expect(await page.locator('.venue address').textContent()).toBe(
      '1 Main Street, Springfield, France',
    );
    const ld = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? '',
    );
    expect(ld['@type']).toBe('Event');
    expect(ld.startDate).toBe('2026-12-05T19:00:00+01:00');
    const ics = await page
      .getByRole('link', { name: 'Download (iCalendar, .ics)' })
      .getAttribute('href');
    expect(ics).toMatch(new RegExp(`^${API_ROOT}/calendar/events/v1/events/\\d+\\.ics$`));
    // The style sheet applied (the page's CSP lets it load): the header has the accent colour.
    expect(
      await page.locator('.site-header').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(31, 95, 191)');
    // Console errors include CSP violations ("Refused to …"): none, JSON-LD included.
    expect(problems).toEqual([]);
  });

  it('asks for a protected event’s password and shows nothing of it before', async () => {
    await page.goto(`${served.baseUrl}/event/members-evening/`);
    expect(await page.locator('h1').textContent()).toBe('This event is password protected');
    expect(await page.content()).not.toContain('Members Evening');
    expect(await page.content()).not.toContain('4321');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Show the event' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('That password is not right.');
    await page.getByLabel('Password').fill('opensesame');
    await page.getByRole('button', { name: 'Show the event' }).click();
    expect(await page.locator('h1').textContent()).toBe('Members Evening');
    expect(await page.locator('.description').textContent()).toContain('The door code is 4321.');
  });

  it('answers a draft’s address with the 404 page', async () => {
    const response = await page.goto(`${served.baseUrl}/event/secret-draft/`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    expect(await page.content()).not.toContain('Secret Draft');
  });

  it('fits a phone: no sideways scrolling on the calendar, the month and an event', async () => {
    const phone = await browser.newPage({ viewport: PHONE, locale: 'en-US' });
    try {
      for (const target of ['/', '/events/', '/events/?month=2026-12', '/event/jazz-night/']) {
        await phone.goto(`${served.baseUrl}${target}`);
        const { scroll, width } = await phone.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          width: window.innerWidth,
        }));
        expect({ target, fits: scroll <= width }).toEqual({ target, fits: true });
      }
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await phone.screenshot({ path: path.join(ARTIFACTS, 'web-phone.png') });
    } finally {
      await phone.close();
    }
  });

  it('renders a non-blank screenshot of the expected size', async () => {
    await open();
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
