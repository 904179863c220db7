import { decodeHTML } from 'entities';
import type { TestEnv } from '../support/harness';

/** Shared pieces of the web page suites: requests through the app, and a little HTML reading. */

export const API = '/wp-json/calendar/events/v1';

export interface Fetched {
  status: number;
  headers: Headers;
  text: string;
}

/** A request through the whole app (yoga.fetch); `target` may be a full `url` of the API. */
export async function fetchPage(
  env: TestEnv,
  target: string,
  init: RequestInit = {},
): Promise<Fetched> {
  const url = new URL(target, 'http://calendar.test');
  const response = await env.app.yoga.fetch(`http://localhost${url.pathname}${url.search}`, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A REST read as anonymous, its JSON. */
export async function rest(env: TestEnv, path: string): Promise<any> {
  const got = await fetchPage(env, `${API}${path}`);
  if (got.status !== 200) throw new Error(`GET ${path}: ${got.status} ${got.text}`);
  return JSON.parse(got.text);
}

/** The text of an HTML fragment: tags dropped, entities decoded, spaces collapsed. */
export function textOf(html: string): string {
  return decodeHTML(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of the page's first `<h1>`. */
export function h1(html: string): string {
  const m = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return m ? textOf(m[1]!) : '';
}

/** Every JSON-LD document the page embeds, parsed. */
export function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]!),
  );
}

/** The `href` of the first link whose text contains `text`. */
export function hrefOf(html: string, text: string): string | null {
  for (const m of html.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)) {
    if (textOf(m[2]!).includes(text)) return decodeHTML(m[1]!);
  }
  return null;
}

/** The API's `utc_*` date (`2026-12-05 18:00:00`) as epoch milliseconds. */
export function utcMs(sql: string): number {
  return Date.parse(`${sql.replace(' ', 'T')}Z`);
}
