import fs from 'node:fs';
import path from 'node:path';
import { createApp, type App } from '../../src/http/server';
import { PAGE_CSP, STATIC_DIR } from '../../src/web/plugin';
import { TestEnv } from '../support/harness';

/**
 * How the pages and their style sheet are served (no browser needed; the pages themselves are
 * checked in headless Chromium by web-page.test.ts and web-a11y.test.ts).
 */

describe('the web pages (served files and headers)', () => {
  const env = new TestEnv('sqlite');
  beforeAll(() => env.start(), 60_000);
  afterAll(() => env.stop());

  async function get(app: App, target: string, init: RequestInit = {}) {
    const response = await app.yoga.fetch(`http://localhost${target}`, init);
    return { response, text: await response.text() };
  }

  it('serves the server-rendered start page at /, its links following API_ROOT', async () => {
    const { response, text } = await get(env.app, '/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(text).toContain('href="/wp-json/calendar/events/v1/doc"');
    expect(text).not.toContain('<%');

    const custom = await createApp({ config: { ...env.config, apiRoot: '/api' }, db: env.db });
    const moved = (await get(custom, '/')).text;
    expect(moved).toContain('href="/api/calendar/events/v1/doc"');
    expect(moved).toContain('href="/api/"');
  });

  it('serves the one style sheet, and no script', async () => {
    const style = await get(env.app, '/assets/calendar.css');
    expect(style.response.status).toBe(200);
    expect(style.response.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(style.text).toBe(fs.readFileSync(path.join(STATIC_DIR, 'calendar.css'), 'utf8'));
    expect((await get(env.app, '/assets/calendar.js')).response.status).toBe(404);
  });

  it('sends a strict Content-Security-Policy of its own, and the other security headers', async () => {
    for (const target of ['/', '/events/', '/event/nothing-here/', '/assets/calendar.css']) {
      const { response } = await get(env.app, target);
      expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
    expect(PAGE_CSP).not.toContain('unsafe-inline');
    expect(PAGE_CSP).not.toContain('script-src');
    expect(PAGE_CSP).toContain("default-src 'none'");
  });

  it('has no script but JSON-LD data, no inline style and no event handler (the CSP would block them)', async () => {
    for (const target of ['/', '/events/', '/events/?month=2026-12']) {
      const { text } = await get(env.app, target);
      expect(text).not.toMatch(/<script(?![^>]*type="application\/ld\+json")[^>]*>/);
      expect(text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    }
  });

  it('answers HEAD, revalidates with ETags, and leaves other paths and methods alone', async () => {
    const first = await get(env.app, '/');
    const etag = first.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.response.headers.get('cache-control')).toBe('public, max-age=60');

    const head = await get(env.app, '/', { method: 'HEAD' });
    expect(head.response.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.response.headers.get('content-length')).toBe(String(Buffer.byteLength(first.text)));

    const again = await get(env.app, '/', { headers: { 'if-none-match': etag } });
    expect(again.response.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.response.headers.get('content-security-policy')).toBe(PAGE_CSP);

    expect((await get(env.app, '/', { method: 'POST' })).response.status).toBe(404);
    expect((await get(env.app, '/index.html')).response.status).toBe(404);
    expect((await get(env.app, '/assets/other.js')).response.status).toBe(404);
  });
});
