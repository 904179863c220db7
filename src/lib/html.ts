import sanitizeHtml from 'sanitize-html';
import {
  GLOBAL_ATTRIBUTES,
  POST_TAGS,
  STYLE_PROPERTIES,
  STYLE_VALUE,
  URL_ATTRIBUTES,
  URL_SCHEMES,
} from './html-allowlist';

/** The HTML allowed in descriptions and excerpts: WordPress's post allowlist (html-allowlist.ts). */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: Object.keys(POST_TAGS),
  allowedAttributes: Object.fromEntries(
    Object.entries(POST_TAGS).map(([tag, attributes]) => [
      tag,
      [...attributes, ...GLOBAL_ATTRIBUTES],
    ]),
  ),
  allowedStyles: {
    '*': Object.fromEntries(STYLE_PROPERTIES.map((property) => [property, [STYLE_VALUE]])),
  },
  allowedSchemes: [...URL_SCHEMES],
  allowedSchemesAppliedToAttributes: [...URL_ATTRIBUTES],
  allowProtocolRelative: false,
  // Void elements of the list are written `<col />`, never `<col></col>`.
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'col', 'track'],
};

/** Text only: every tag dropped, with the content of scripts and styles. */
const NO_TAGS: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };

/**
 * Text, and paragraphs of text, with nothing the sanitiser would change: no tag but a bare
 * `<p>…</p>` (not nested), no `&` (entities), `<`, `>` or NUL. The common case of imports and
 * event writes (the sanitiser costs ~30 µs even then); its answer for such text is the input,
 * trimmed (test/posts/html.test.ts compares both). Tested on texts up to `PLAIN_MAX` characters
 * only: the regular expression's backtracking stack grows with the number of paragraphs.
 */
const PLAIN = /^[^<>&\0]*(?:<p>[^<>&\0]*<\/p>[^<>&\0]*)*$/;
const PLAIN_MAX = 65_536;

/** Sanitises user HTML to the allowlist: no scripts, event handlers or `javascript:` URLs. */
export function sanitizeRichText(html: string): string {
  if (html.length <= PLAIN_MAX && PLAIN.test(html)) return html.trim();
  return parseAndSanitize(html);
}

/** `sanitizeRichText` without the shortcut for plain text. */
export function parseAndSanitize(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The text of HTML without its tags, entities still encoded (`&amp;`, `&lt;`, `&gt;`). */
export function stripTags(html: string): string {
  return sanitizeHtml(html, NO_TAGS);
}
