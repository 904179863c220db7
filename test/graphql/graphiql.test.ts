import { TestEnv } from '../support/harness';

/**
 * GraphiQL: Yoga serves it on GET /graphql to browsers (Accept: text/html). It is one HTML page
 * loading its scripts, styles, icon and editor workers from /graphql/assets/ (the package's own
 * build, no CDN) with no inline script; the security headers of the HTTP layer allow this origin
 * and nothing else. The rendering in a real browser, with every outside request refused, is
 * checked in test/browser/graphiql.test.ts. The SDL is at /graphql/schema.graphql.
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

  it('serves the GraphiQL page to a browser, with the service’s title and examples', async () => {
    const { response, html } = await page();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toMatch(/<title>Events calendar GraphQL · [^<]+<\/title>/);
    expect(html).toContain('query UpcomingEvents');
    expect(html).toContain('event_counts(group_by: MONTH');
    expect(html).not.toMatch(/unpkg|https?:\/\/(?!localhost)/);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('loads only files of this origin, which its Content-Security-Policy allows', async () => {
    const { response, html } = await page();
    const csp = directives(response.headers.get('content-security-policy') ?? '');
    const scripts = [...html.matchAll(/<script[^>]*\ssrc=["']?([^"' >]+)/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link[^>]*rel=["']?stylesheet[^>]*href=["']?([^"' >]+)/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect(allows(csp.get('script-src'), src)).toBe(true);
    for (const [, href] of styles) expect(allows(csp.get('style-src'), href!)).toBe(true);
    // No inline script runs: the only inline <script> is inert JSON.
    const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>/g)].map((m) => m[1]!);
    expect(inline.every((attributes) => attributes.includes('application/json'))).toBe(true);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('worker-src')).toEqual(["'self'"]);
    expect(allows(csp.get('connect-src'), '/graphql')).toBe(true);
    expect(response.headers.get('content-security-policy')).not.toMatch(/https?:/);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    for (const asset of [...scripts, ...styles.map(([, href]) => href!)]) {
      const served = await env.app.yoga.fetch(`http://localhost${asset}`);
      expect(served.status).toBe(200);
      const etag = served.headers.get('etag')!;
      expect(etag).toMatch(/^"/);
      const again = await env.app.yoga.fetch(`http://localhost${asset}`, {
        headers: { 'if-none-match': etag },
      });
      expect(again.status).toBe(304);
    }
    for (const worker of ['editor', 'json', 'graphql']) {
      const served = await env.app.yoga.fetch(
        `http://localhost/graphql/assets/${worker}.worker.js`,
      );
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^text\/javascript/);
    }
  });

  it('serves the SDL printed from the executable schema, with an ETag', async () => {
    const response = await env.app.yoga.fetch('http://localhost/graphql/schema.graphql');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const sdl = await response.text();
    expect(sdl).toContain('scalar DateTime');
    expect(sdl).toContain('interface Node');
    expect(sdl).toMatch(/event_counts\(/);
    const etag = response.headers.get('etag')!;
    const again = await env.app.yoga.fetch('http://localhost/graphql/schema.graphql', {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('still answers GraphQL over GET to non-browser clients', async () => {
    const response = await env.app.yoga.fetch('http://localhost/graphql?query=%7B__typename%7D', {
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
