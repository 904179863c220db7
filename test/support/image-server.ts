import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server for image URLs in writes (they are fetched, src/posts/image-fetch.ts).
 * Test environments allow fetching from it (`IMAGE_FETCH_ALLOW=127.0.0.1`, support/harness.ts);
 * 127.0.0.1 is refused otherwise. Paths:
 *
 * - `*.png`, `*.jpg` / `*.jpeg` (any case), `*.gif`: real images (3×2, 5×4, 7×6), whatever the
 *   rest of the path; `/png-as.jpg` serves the PNG under a JPEG name;
 * - `/page.html`: an HTML page; `/missing.png`: 404; `/huge.png`, `/huge-chunked.png`: a PNG
 *   header followed by `hugeBytes` bytes, with and without `Content-Length`;
 * - `/redirect/<n>/<path>`: `n` redirects, then `<path>`; `/goto/<encoded URL>`: redirects there;
 * - `/slow.png`: answers after `slowMs`; `/wait/<ms>/<path>`: `<path>` after `ms`.
 */

/** Real images made by Pillow, small enough to inline. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAFUlEQVR42mOUj9/PwMDAwMDAxAADABXmAUFgusWuAAAAAElFTkSuQmCC',
  'base64',
);
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAEAAUDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCQAIqH/9k=',
  'base64',
);
export const GIF = Buffer.from(
  'R0lGODdhBwAGAIEAAAEBAQAAAAAAAAAAACwAAAAABwAGAAAIDQABCBxIsKDBgwgNBgQAOw==',
  'base64',
);

/** The allowlist entry for this server. */
export const IMAGE_HOST = '127.0.0.1';

export interface ImageServer {
  /** `http://127.0.0.1:<port><path>`. */
  url(path: string): string;
  /** Requests received, by path (with the query). */
  requests: Map<string, number>;
  /** Total requests received. */
  count(): number;
  close(): Promise<void>;
}

export interface ImageServerOptions {
  hugeBytes?: number;
  slowMs?: number;
}

export async function startImageServer(options: ImageServerOptions = {}): Promise<ImageServer> {
  const requests = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.set(path, (requests.get(path) ?? 0) + 1);
    serve(path, res, options, timers);
  });
  await new Promise<void>((resolve) => server.listen(0, IMAGE_HOST, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://${IMAGE_HOST}:${port}${path}`,
    requests,
    count: () => [...requests.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function serve(
  path: string,
  res: http.ServerResponse,
  options: ImageServerOptions,
  timers: Set<NodeJS.Timeout>,
): void {
  const redirect = /^\/redirect\/(\d+)(\/.*)$/.exec(path);
  if (redirect) {
    const left = Number(redirect[1]);
    const next = left > 1 ? `/redirect/${left - 1}${redirect[2]}` : redirect[2]!;
    res.writeHead(302, { location: next }).end();
    return;
  }
  const wait = /^\/wait\/(\d+)(\/.*)$/.exec(path);
  if (wait) {
    timers.add(setTimeout(() => serve(wait[2]!, res, options, timers), Number(wait[1])));
    return;
  }
  if (path.startsWith('/goto/')) {
    res.writeHead(302, { location: decodeURIComponent(path.slice(6)) }).end();
    return;
  }
  const huge = options.hugeBytes ?? 64 * 1024;
  if (path === '/huge.png') {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length + huge });
    res.end(Buffer.concat([PNG, Buffer.alloc(huge)]));
    return;
  }
  if (path === '/huge-chunked.png') {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write(PNG);
    for (let sent = 0; sent < huge; sent += 1024) res.write(Buffer.alloc(1024));
    res.end();
    return;
  }
  if (path === '/slow.png') {
    timers.add(setTimeout(() => send(res, 'image/png', PNG), options.slowMs ?? 2_000));
    return;
  }
  if (path === '/missing.png') return void res.writeHead(404).end('not found');
  if (path === '/page.html') return send(res, 'text/html', Buffer.from('<!doctype html><p>hi'));
  if (path === '/png-as.jpg') return send(res, 'image/jpeg', PNG);
  const file = path.split('?')[0]!.toLowerCase();
  if (file.endsWith('.png')) return send(res, 'image/png', PNG);
  if (/\.jpe?g$/.test(file)) return send(res, 'image/jpeg', JPEG);
  if (file.endsWith('.gif')) return send(res, 'image/gif', GIF);
  res.writeHead(404).end();
}

function send(res: http.ServerResponse, type: string, body: Buffer): void {
  res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
}

/**
 * Starts a server for the enclosing `describe` (before its later `beforeAll` hooks, after the
 * environment's) and closes it after; `url` works from then on.
 */
export function useImageServer(options: ImageServerOptions = {}): Pick<ImageServer, 'url'> & {
  server(): ImageServer;
} {
  let server: ImageServer | undefined;
  beforeAll(async () => {
    server = await startImageServer(options);
  });
  afterAll(() => server?.close());
  const started = () => {
    if (!server) throw new Error('the image server starts in beforeAll');
    return server;
  };
  return { url: (path) => started().url(path), server: started };
}
