import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { App } from '../../src/http/server';

/**
 * Headless Chromium for the browser tests: Debian's `chromium` package (/usr/bin/chromium, or
 * CHROMIUM_PATH) driven by playwright-core, which never downloads a browser. Without Chromium
 * the suites are skipped with a loud banner, or fail when REQUIRE_BROWSER=1 (CI).
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(__dirname, 'artifacts');

/** The flags this machine needs (no sandbox as root, no calls home on a closed network). */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** `describe`, or a loud skip (or a failure under REQUIRE_BROWSER=1) when Chromium is absent. */
export function describeWithBrowser(title: string, fn: () => void): void {
  if (fs.existsSync(CHROMIUM_PATH)) {
    describe(title, fn);
    return;
  }
  if (process.env.REQUIRE_BROWSER === '1') {
    describe(title, () => {
      it('needs Chromium', () => {
        throw new Error(
          `REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH).`,
        );
      });
    });
    return;
  }
  const bar = '!'.repeat(78);
  console.warn(
    `\n${bar}\n  No Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH).\n  THE BROWSER TEST "${title}" IS SKIPPED. Set REQUIRE_BROWSER=1 to fail instead.\n${bar}\n`,
  );
  describe.skip(title, fn);
}

/**
 * Launches Chromium. Playwright gives every `launch` a fresh, empty profile directory of its own
 * (it refuses a `--user-data-dir` flag here) and removes it on close.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    timeout: 60_000,
  });
}

export interface Listening {
  server: Server;
  baseUrl: string;
  close(): Promise<void>;
}

/** Serves the app on a free port of 127.0.0.1 through node:http, as main.ts does. */
export async function listen(app: App): Promise<Listening> {
  const server = createServer(app.yoga);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Console errors, uncaught exceptions and failed requests of a page, for "no errors" checks. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  return problems;
}
