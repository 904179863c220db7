import fs from 'node:fs';
import path from 'node:path';
import { createApp, type App } from '../../src/http/server';
import { PAGE_CSP, STATIC_DIR } from '../../src/web/plugin';
import { TestEnv } from '../support/harness';

/**
 * How the web page and its assets are served (no browser needed; the page itself is checked in
 * headless Chromium by web-page.test.ts).
 */

describe('the web page at / (served files)', () => {
  const env = new TestEnv('sqlite');
  beforeAll(() => env.start(), 60_000);
  afterAll(() => env.stop());

  async function get(app: App, target: string, init: RequestInit = {}) {
    const response = await app.yoga.fetch(`http://localhost${target}`, init);
    return { response, text: await response.text() };
  }

  it('serves the HTML page at / with the REST namespace of API_ROOT written in', async () => {
    const { response, text } = await get(env.app, '/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(text).toContain('<meta name="calendar-api" content="/wp-json/calendar/events/v1" />');
    expect(text).not.toContain('{{');

    const custom = await createApp({ config: { ...env.config, apiRoot: '/api' }, db: env.db });
    expect((await get(custom, '/')).text).toContain(
      '<meta name="calendar-api" content="/api/calendar/events/v1" />',
    );
  });

  it('serves the script and the style sheet', async () => {
    const script = await get(env.app, '/assets/calendar.js');
    expect(script.response.status).toBe(200);
    expect(script.response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text).toBe(fs.readFileSync(path.join(STATIC_DIR, 'calendar.js'), 'utf8'));
    const style = await get(env.app, '/assets/calendar.css');
    expect(style.response.status).toBe(200);
    expect(style.response.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('sends a strict Content-Security-Policy of its own, and the other security headers', async () => {
    for (const target of ['/', '/assets/calendar.js', '/assets/calendar.css']) {
      const { response } = await get(env.app, target);
      expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
    expect(PAGE_CSP).not.toContain('unsafe-inline');
  });

  it('has no inline script, style or event handler (the CSP would block them)', async () => {
    const { text } = await get(env.app, '/');
    expect(text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    const script = fs.readFileSync(path.join(STATIC_DIR, 'calendar.js'), 'utf8');
    // Data goes in as text, never as HTML.
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });

  it('answers HEAD, revalidates with ETags, and leaves other paths and methods alone', async () => {
    const first = await get(env.app, '/');
    const etag = first.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.response.headers.get('cache-control')).toBe('no-cache');

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
