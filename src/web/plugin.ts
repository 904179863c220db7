import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { etagOf, matchesEtag } from '../http/etag';
import { requestInfo } from '../http/request-info';
import { NAMESPACE } from '../lib';

/**
 * The upcoming-events web page at `/` (docs/web.md): a static HTML page, a script and a
 * style sheet from `src/web/static/` (copied to `dist/src/web/static/` by `npm run build`), read
 * once at start-up. The page calls the public REST API from the browser; its address
 * (`{API_ROOT}/calendar/events/v1`) is written into the HTML here, so the page follows API_ROOT.
 *
 * The page's responses carry a Content-Security-Policy of their own — scripts, styles and
 * requests from this origin only, no inline code — set in `onResponse`, after the HTTP layer
 * (src/http/) has set its defaults. Answers GET and HEAD, with ETags (304 on If-None-Match).
 */

export const STATIC_DIR = path.join(__dirname, 'static');

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

const FILES: Record<string, { file: string; contentType: string }> = {
  '/': { file: 'index.html', contentType: 'text/html; charset=utf-8' },
  '/assets/calendar.js': { file: 'calendar.js', contentType: 'text/javascript; charset=utf-8' },
  '/assets/calendar.css': { file: 'calendar.css', contentType: 'text/css; charset=utf-8' },
};

/** The paths the page answers (for the metrics' `route` label). */
export const WEB_PATHS = Object.keys(FILES);

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function loadAssets(config: Config): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [route, { file, contentType }] of Object.entries(FILES)) {
    const location = path.join(STATIC_DIR, file);
    let text: string;
    try {
      text = fs.readFileSync(location, 'utf8');
    } catch {
      throw new Error(
        `The web page's file ${location} is missing: build with \`npm run build\`, which copies src/web/static.`,
      );
    }
    if (file === 'index.html') {
      text = text.replace('{{API_BASE}}', escapeAttribute(`${config.apiRoot}/${NAMESPACE}`));
    }
    const body = Buffer.from(text, 'utf8');
    const etag = etagOf(body);
    assets.set(route, { body, contentType, etag });
  }
  return assets;
}

export function useWebPage(config: Config): Plugin {
  const assets = loadAssets(config);
  return {
    onRequest({ request, url, fetchAPI, endResponse }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const asset = assets.get(url.pathname);
      if (!asset) return;
      // The access log (src/http/) names the route.
      requestInfo(request).route = url.pathname;
      const headers = {
        'Content-Type': asset.contentType,
        'Cache-Control': 'no-cache',
        ETag: asset.etag,
      };
      if (matchesEtag(request.headers.get('if-none-match'), asset.etag)) {
        endResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      const body = request.method === 'HEAD' ? null : new Uint8Array(asset.body);
      endResponse(
        new fetchAPI.Response(body, {
          status: 200,
          headers: { ...headers, 'Content-Length': String(asset.body.length) },
        }),
      );
    },
    onResponse({ request, response, setResponse, fetchAPI }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      if (response.status !== 200 && response.status !== 304) return;
      if (!assets.has(new URL(request.url, 'http://localhost').pathname)) return;
      try {
        response.headers.set('Content-Security-Policy', PAGE_CSP);
      } catch {
        const copy = new fetchAPI.Response(response.body, response);
        copy.headers.set('Content-Security-Policy', PAGE_CSP);
        setResponse(copy);
      }
    },
  };
}
