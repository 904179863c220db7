import { TestEnv } from '../support/harness';

/**
 * GraphiQL: Yoga serves it on GET /graphql to browsers (Accept: text/html). It is one HTML page
 * loading its scripts, styles and editor workers from unpkg.com with inline bootstrap scripts;
 * the security headers of the HTTP layer must allow exactly what it loads. The rendering in a
 * real browser is checked in test/browser/graphiql.test.ts.
 */

/** `Content-Security-Policy` → directive → sources. */
function directives(csp: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), sources);
  }
  return map;
}

/** Whether `url` is allowed by a source list (host sources and 'self' only; enough here). */
function allows(sources: string[] | undefined, url: string, self = 'http://localhost'): boolean {
  if (!sources) return false;
  const target = new URL(url, self);
  return sources.some((source) => {
    if (source === "'self'") return target.origin === new URL(self).origin;
    if (/^https?:\/\//.test(source)) {
      const allowed = new URL(source);
      return (
        target.origin === allowed.origin &&
        target.pathname.startsWith(allowed.pathname.replace(/\/$/, '') || '/')
      );
    }
    if (source === 'https:') return target.protocol === 'https:';
    return false;
  });
}

describe('GraphiQL at GET /graphql', () => {
  const env = new TestEnv('sqlite');
  beforeAll(() => env.start(), 60_000);
  afterAll(() => env.stop());

  async function page() {
    const response = await env.app.yoga.fetch('http://localhost/graphql', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    return { response, html: await response.text() };
  }

  it('serves the GraphiQL page to a browser', async () => {
    const { response, html } = await page();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toMatch(/<title>[^<]*GraphiQL<\/title>/);
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('is allowed by its Content-Security-Policy to load everything it needs', async () => {
    const { response, html } = await page();
    const csp = directives(response.headers.get('content-security-policy') ?? '');
    const scripts = [...html.matchAll(/<script[^>]*\ssrc=["']?([^"' >]+)/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link[^>]*rel=["']?stylesheet[^>]*href=["']?([^"' >]+)/g)];
    const fetched = [...html.matchAll(/"(https:\/\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect(allows(csp.get('script-src'), src)).toBe(true);
    for (const [, href] of styles) expect(allows(csp.get('style-src'), href!)).toBe(true);
    // The editor workers are fetched, then run from blob: URLs.
    for (const url of fetched) expect(allows(csp.get('connect-src'), url)).toBe(true);
    expect(csp.get('worker-src')).toContain('blob:');
    // Inline bootstrap scripts, and queries to /graphql itself.
    expect(/<script>/.test(html)).toBe(true);
    expect(csp.get('script-src')).toContain("'unsafe-inline'");
    expect(allows(csp.get('connect-src'), '/graphql')).toBe(true);
    // Still not frameable.
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('still answers GraphQL over GET to non-browser clients', async () => {
    const response = await env.app.yoga.fetch('http://localhost/graphql?query=%7B__typename%7D', {
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
