import path from 'node:path';
import { Eta } from 'eta';
import type { Config } from '../config';
import { siteLinks, type Page } from './page';

/**
 * The templates: Eta (docs/web.md, "Templates"), compiled once and cached, with escaping on by
 * default — `<%= %>` escapes, and the only raw outputs (`<%~ %>`) are the layout's body, included
 * partials, the sanitised descriptions and the JSON-LD (escaped for a script element by `ldJson`).
 */

/** src/web/static/templates (copied to dist/ by `npm run build` with the style sheet). */
export const TEMPLATES_DIR = path.join(__dirname, 'static', 'templates');

const eta = new Eta({ views: TEMPLATES_DIR, autoEscape: true, cache: true });

/**
 * JSON for a `<script type="application/ld+json">` element: `<` escaped so no text in it can
 * close the element (`</script>`) or open a comment; still the same JSON to any parser.
 */
export function ldJson(doc: unknown): string {
  return JSON.stringify(doc)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The whole document of a page: its template inside the layout. */
export function renderPage(config: Config, page: Page): string {
  const site = siteLinks(config);
  return eta.render(`./${page.template}`, {
    ...page.data,
    site,
    meta: page.meta,
    ldJson,
  });
}
