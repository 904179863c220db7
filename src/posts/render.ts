import { autop } from '@wordpress/autop';
import { decodeHTML } from 'entities';
import { flatText, stripTags } from '../lib';
import { capitalPInContent, capitalPInTitle, convertChars, phpTrim, texturize } from './texturize';

/**
 * Rendering on output (docs/contract.md §4): the stored text is exactly what was sent, and every
 * output that shows it as the reference does (REST bodies through the GraphQL `*_rendered`
 * fields, the SOFA view, JSON-LD) renders it here, with WordPress's filters in WordPress's order:
 *
 * - titles and names: `the_title` — wptexturize, convert_chars, trim, capital_P_dangit — then
 *   `<` and `>` become `&lt;` and `&gt;` [ours: our titles are plain text, so markup in them is
 *   escaped as text, where WordPress would pass an administrator's markup through];
 * - descriptions: `the_content` — wptexturize, wpautop, capital_P_dangit;
 * - excerpts: `the_excerpt` — wptexturize, convert_chars, wpautop;
 *
 * each trimmed, as the reference trims them. wpautop is @wordpress/autop, WordPress's own port,
 * brought to PHP's answers where it parts from them (checked against WordPress's PHP on generated
 * texts): the step it lacks (a paragraph break after `<hr />`), PHP's idea of whitespace (ASCII
 * only) and of `$` (also before a final newline). Still apart: whitespace between a `<br>` and a
 * newline (PHP adds a second `<br />` there). Not reproduced: smilies (they become images on
 * WordPress.org's servers), shortcodes and blocks (none exist here), lazy-loading attributes on
 * images.
 */

/** PHP's wpautop adds a blank line after a self-closing `<hr>` outside `<pre>`. */
const HR = /(<hr\s*?\/?>)/g;
const PRE = /(<pre[\s\S]*?<\/pre>)/;

/**
 * Whitespace beyond ASCII (no-break space, ideographic space …): PHP's `trim` and `\s` leave it
 * alone, JavaScript's strip it, so autop sees it as noncharacters (U+FDD0…) and gets it back.
 */
const UNICODE_SPACES =
  '\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
const UNICODE_SPACE = new RegExp(`[${UNICODE_SPACES}]`);
const STAND_IN = /[\ufdd0-\ufdef]/;

/** PHP's `$` also matches before a final newline: its last `\n</p>` rule catches this end too. */
const LAST_CLOSE = /\n<\/p>\n$/;

function wpautop(html: string): string {
  let out: string;
  if (!UNICODE_SPACE.test(html) || STAND_IN.test(html)) out = autop(html);
  else {
    const hidden = html.replace(new RegExp(UNICODE_SPACE, 'g'), (c) =>
      String.fromCharCode(0xfdd0 + UNICODE_SPACES.indexOf(c)),
    );
    out = autop(hidden).replace(
      new RegExp(STAND_IN, 'g'),
      (c) => UNICODE_SPACES[c.charCodeAt(0) - 0xfdd0]!,
    );
  }
  return out.replace(LAST_CLOSE, '</p>\n');
}

function autoParagraphs(html: string): string {
  if (!html.includes('<hr')) return wpautop(html);
  const parts = html.split(PRE);
  for (let i = 0; i < parts.length; i += 2) parts[i] = parts[i]!.replace(HR, '$1\n\n');
  return wpautop(parts.join(''));
}

/** Renders of short texts, reused: a page of events shows the same venue in many of them. */
const MEMO_MAX_ENTRIES = 1000;
const MEMO_MAX_CHARS = 2048;

/**
 * Renders remembered by their text, each kept as one flat string (`flatText`): a render ends in
 * a trim, whose result is a slice of a larger string, and V8's fast `JSON.stringify` (Node 26)
 * serialises only flat strings — one slice sends the whole body down the slow path (~2.5 times
 * as slow, docs/performance.md).
 */
function memoised(render: (text: string) => string): (text: string) => string {
  const memo = new Map<string, string>();
  return (text) => {
    if (text === '') return '';
    if (text.length > MEMO_MAX_CHARS) return flatText(render(text));
    let out = memo.get(text);
    if (out === undefined) {
      if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
      out = flatText(render(text));
      memo.set(text, out);
    }
    return out;
  };
}

/** A title or a name as the reference sends it (`the_title`), its markup escaped. */
export const renderTitle = memoised((title) => {
  const filtered = phpTrim(capitalPInTitle(phpTrim(convertChars(texturize(title)))));
  return filtered.replaceAll('<', '&lt;').replaceAll('>', '&gt;');
});

/** A description as the reference sends it (`the_content`). */
export const renderDescription = memoised((html) =>
  phpTrim(capitalPInContent(autoParagraphs(texturize(html)))),
);

/** An excerpt as the reference sends it (`the_excerpt`). */
export const renderExcerpt = memoised((html) =>
  phpTrim(autoParagraphs(convertChars(texturize(html)))),
);

/**
 * The plain text of rendered HTML: no tags, entities decoded (JSON-LD, whose text is not HTML,
 * shows the same typography as the REST body).
 */
export const renderedText = memoised((html: string): string => {
  if (onlyParagraphs(html)) return decodeHTML(html.replace(PARAGRAPH_TAGS, '')).trim();
  return parsedText(html);
});

/** `renderedText` through the sanitizer always (tests compare both ways). */
export function parsedText(html: string): string {
  return decodeHTML(stripTags(html)).trim();
}

const PARAGRAPH_TAGS = /<\/?p>|<br \/>/g;
const PARAGRAPH_TAG = /<\/?p>|<br \/>/y;
/** An entity as the renderers write them (`&#8217;`, `&amp;`): decoded alike by both ways. */
const ENTITY = /&(?:#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/y;

/**
 * Whether the text's only markup is what wpautop writes (`<p>`, `</p>`, `<br />`) and its only
 * `&`s start entities: then dropping those tags and decoding is exactly what the sanitizer's
 * parse gives (~50 µs a description; JSON-LD reads venue and organizer texts too), which every
 * other text goes through. `<`, `&` and NUL are the only characters the parse treats apart.
 */
export function onlyParagraphs(html: string): boolean {
  if (html.includes('\0')) return false;
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) {
    PARAGRAPH_TAG.lastIndex = i;
    if (!PARAGRAPH_TAG.test(html)) return false;
  }
  for (let i = html.indexOf('&'); i !== -1; i = html.indexOf('&', i + 1)) {
    ENTITY.lastIndex = i;
    if (!ENTITY.test(html)) return false;
  }
  return true;
}
