import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { TestEnv } from '../support/harness';
import {
  describeWithBrowser,
  launchBrowser,
  listen,
  watchProblems,
  type Listening,
} from './browser';

/**
 * Accessibility of every page type (issue 22, WCAG 2.1 AA): axe-core, injected into each page
 * in headless Chromium, reports no serious or critical violation of the WCAG 2.0/2.1 A and AA
 * rules (contrast, landmarks, labels, heading order, link names …); each page is also walked
 * with the keyboard (Tab reaches its links and controls, the skip link first).
 */

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

jest.setTimeout(120_000);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describeWithBrowser('the pages under axe-core in headless Chromium', () => {
  const env = new TestEnv('sqlite', { SITE_TIMEZONE: 'Europe/Paris' });
  let served: Listening;
  let browser: Browser;

  async function post(resource: string, body: Record<string, unknown>): Promise<any> {
    const response = await env.app.yoga.fetch(
      `http://localhost/wp-json/calendar/events/v1/${resource}`,
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
    const hall = await post('venues', {
      venue: 'Main Hall',
      address: '1 Main Street',
      city: 'Springfield',
      country: 'France',
      geo_lat: 48.85,
      geo_lng: 2.35,
      show_map_link: true,
    });
    const crew = await post('organizers', {
      organizer: 'Night Crew',
      email: 'crew@example.org',
      website: 'https://crew.example.org',
    });
    await post('events', {
      title: 'Jazz Night',
      description: '<p>Bring your <strong>dancing shoes</strong>.</p><ul><li>Doors 18:30</li></ul>',
      start_date: '2026-12-05 19:00:00',
      end_date: '2026-12-05 22:30:00',
      timezone: 'Europe/Paris',
      venue: hall.id,
      organizer: [crew.id],
      cost: '15',
      website: 'https://jazz.example.org',
      categories: ['Concerts'],
      tags: ['Live'],
    });
    for (let day = 6; day <= 9; day++) {
      await post('events', {
        title: `Workshop ${day}`,
        start_date: `2026-12-0${day} 10:00:00`,
        end_date: `2026-12-0${day} 12:00:00`,
        categories: ['Workshops'],
      });
    }
    await post('events', {
      title: 'Members Evening',
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

  const PAGES: [string, string, number][] = [
    ['start page', '/', 200],
    ['calendar list', '/events/', 200],
    ['calendar filtered', '/events/?category=workshops', 200],
    ['month view', '/events/?month=2026-12', 200],
    ['event', '/event/jazz-night/', 200],
    ['password form', '/event/members-evening/', 200],
    ['venue', '/venue/main-hall/', 200],
    ['organizer', '/organizer/night-crew/', 200],
    ['category', '/events/category/concerts/', 200],
    ['tag', '/tag/live/', 200],
    ['not found', '/event/no-such-slug/', 404],
  ];

  async function axe(page: Page): Promise<{ violations: AxeViolation[]; passes: number }> {
    // Evaluated through the DevTools protocol, which the page's CSP (no script at all) does
    // not govern: the page itself still runs no script.
    await page.evaluate(AXE_SOURCE);
    return page.evaluate(async () => {
      const result = await (window as any).axe.run(document, {
        runOnly: {
          type: 'tag',
          values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
        },
      });
      return {
        violations: result.violations.map((v: any) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n: any) => ({ target: n.target })),
        })),
        // Rules that ran and passed: proof the check looked at the page.
        passes: result.passes.length,
      };
    });
  }

  it.each(PAGES)(
    '%s (%s): no serious or critical violation, no CSP violation',
    async (_name, target, status) => {
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 375, height: 740 },
      ]) {
        const page = await browser.newPage({ viewport, locale: 'en-US' });
        try {
          const problems = watchProblems(page);
          const response = await page.goto(`${served.baseUrl}${target}`);
          expect(response?.status()).toBe(status);
          const { violations, passes } = await axe(page);
          expect(passes).toBeGreaterThan(15);
          const severe = violations.filter(
            (v) => v.impact === 'serious' || v.impact === 'critical',
          );
          expect({ target, viewport, severe }).toEqual({ target, viewport, severe: [] });
          // The 404 page's own status is the one "failed resource" console line; nothing else.
          expect(problems.filter((p) => !(status === 404 && p.includes('404')))).toEqual([]);
        } finally {
          await page.close();
        }
      }
    },
  );

  it('is usable with the keyboard: the skip link comes first, Tab reaches the form and links', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${served.baseUrl}/events/`);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
        'Skip to content',
      );
      await page.keyboard.press('Enter');
      expect(new URL(page.url()).hash).toBe('#main');
      const reached: string[] = [];
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        reached.push(
          await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            return el ? `${el.tagName.toLowerCase()}:${el.id || el.textContent?.trim()}` : '';
          }),
        );
      }
      expect(reached).toEqual(
        expect.arrayContaining(['select:f-category', 'select:f-tag', 'button:Show events']),
      );
      // The category select, then Enter on the button, filters without a mouse.
      await page.focus('#f-category');
      await page.keyboard.press('ArrowDown');
      await page.focus('button[type="submit"]');
      await Promise.all([page.waitForURL(/category=/), page.keyboard.press('Enter')]);
      expect(new URL(page.url()).searchParams.get('category')).toBeTruthy();
    } finally {
      await page.close();
    }
  });
});
