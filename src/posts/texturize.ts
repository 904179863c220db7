/**
 * WordPress's typography filters as the reference runs them on output (docs/contract.md §4,
 * "Rendering on output"): `wptexturize` (curly quotes, apostrophes, primes, dashes, ellipsis,
 * ™, ×, and `&` → `&#038;`), `convert_chars` and `capital_P_dangit`, with WordPress's rules and
 * in its order. No maintained JavaScript port of them exists (SmartyPants-style libraries follow
 * other rules: `--` is an em dash there, an en dash here), so the rules are tables below; the
 * code only applies them. PHP's `\Z` and `$` (no multiline flag: the end, or before a final
 * newline) are written `\n?$`, `\A` is `^`, and PCRE's conditional groups are spelled out.
 */

/** WordPress's `wp_spaces_regexp()`. */
const SPACES = '[\\r\\n\\t ]|\\u00a0|&nbsp;';
const END = '\\n?$';

const OPEN_QUOTE = '&#8220;';
const CLOSE_QUOTE = '&#8221;';
const OPEN_SINGLE = '&#8216;';
const CLOSE_SINGLE = '&#8217;';
const APOSTROPHE = '&#8217;';

// Placeholders WordPress uses between its passes (HTML comments, so no rule matches inside).
const OPEN_QUOTE_FLAG = '<!--oq-->';
const OPEN_SINGLE_FLAG = '<!--osq-->';
const APOSTROPHE_FLAG = '<!--apos-->';
const PRIME_OR_QUOTE_FLAG = '<!--wp-prime-or-quote-->';

/** Elements whose content is never texturised. */
const NO_TEXTURIZE = new Set(['pre', 'code', 'kbd', 'style', 'script', 'tt']);

/** Words that start with an apostrophe rather than an opening quote. */
const COCKNEY = "'tain't,'twere,'twas,'tis,'twill,'til,'bout,'nuff,'round,'cause,'em".split(',');

/** Plain replacements, applied in order. */
const STATIC: readonly (readonly [string, string])[] = [
  ['...', '&#8230;'],
  ['``', OPEN_QUOTE],
  ["''", CLOSE_QUOTE],
  [' (tm)', ' &#8482;'],
  ...COCKNEY.map((word) => [word, word.replaceAll("'", APOSTROPHE)] as const),
];

type Rule = readonly [RegExp, string];
const rule = (pattern: string, replacement: string): Rule => [
  new RegExp(pattern, 'g'),
  replacement,
];

/** Where a closing quote may stand: before the end, punctuation, `&gt;` or a space. */
const CLOSER = `(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`;

const APOSTROPHE_RULES: readonly Rule[] = [
  // '99' and '99" : an abbreviated year at the end of a quotation.
  rule(`'(\\d\\d)'${CLOSER}`, `${APOSTROPHE_FLAG}$1${CLOSE_SINGLE}`),
  rule(`'(\\d\\d)"${CLOSER}`, `${APOSTROPHE_FLAG}$1${CLOSE_QUOTE}`),
  // '99, '99s, '99's — never '9, '99%, '999 or '99.0.
  rule(`'(?=\\d\\d(?:${END}|(?![%\\d]|[.,]\\d)))`, APOSTROPHE_FLAG),
  // Quoted numbers like '0.42'.
  rule(`(?<=^|${SPACES})'(\\d[.,\\d]*)'`, `${OPEN_SINGLE_FLAG}$1${CLOSE_SINGLE}`),
  // At the start, or after ( { < [ " - or a space.
  rule(`(?<=^|[([{"\\-]|&lt;|${SPACES})'`, OPEN_SINGLE_FLAG),
  // Inside a word.
  rule(`(?<!${SPACES})'(?!${END}|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SPACES})`, APOSTROPHE_FLAG),
];

const QUOTE_RULES: readonly Rule[] = [
  // Quoted numbers like "42".
  rule(`(?<=^|${SPACES})"(\\d[.,\\d]*)"`, `${OPEN_QUOTE_FLAG}$1${CLOSE_QUOTE}`),
  // At the start, or after ( { < [ - or a space, and not before a space.
  rule(`(?<=^|[([{\\-]|&lt;|${SPACES})"(?!${SPACES})`, OPEN_QUOTE_FLAG),
];

const DASH_RULES: readonly Rule[] = [
  rule('---', '&#8212;'),
  rule(`(?<=^|${SPACES})--(?=${END}|${SPACES})`, '&#8212;'),
  rule('(?<!xn)--', '&#8211;'),
  rule(`(?<=^|${SPACES})-(?=${END}|${SPACES})`, '&#8211;'),
];

/** 9x9 (times), never 0x9999. */
const TIMES_HINT = /(?<=\d)x\d/;
const TIMES = /\b(\d(?:(?<=0)[\d.,]+|(?<!0)[\d.,]*))x(\d[\d.,]*)\b/g;

/** `&` that does not already start an entity. */
const LONE_AMPERSAND = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

/** Elements and comments (the text between them is what gets texturised). */
const ELEMENT = /(<(?:(?=!--)!(?:-(?!->)[^-]*)*(?:-->)?|(?!!--)[^>]*>?))/;

/** PHP's `trim()` whitespace. */
const PHP_SPACE = ' \t\n\r\0\x0B';

export function phpTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PHP_SPACE.includes(text[start]!)) start++;
  while (end > start && PHP_SPACE.includes(text[end - 1]!)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function applyAll(text: string, rules: readonly Rule[]): string {
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  return out;
}

/** Counts the matches while replacing them. */
function replaceCounting(text: string, pattern: RegExp, replacement: string): [string, number] {
  let count = 0;
  const out = text.replace(pattern, () => {
    count++;
    return replacement;
  });
  return [out, count];
}

/**
 * WordPress's `wptexturize_primes`: decides, sentence by sentence (split at opening quotes),
 * whether `'`/`"` after a digit is a prime (9′, 9″) or a closing quote.
 */
function primes(text: string, needle: "'" | '"', prime: string, open: string, close: string) {
  const quote = new RegExp(`${needle}(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g');
  const afterDigit = new RegExp(`(?<=\\d)${needle}`, 'g');
  const flag = PRIME_OR_QUOTE_FLAG;
  const sentences = text.split(open).map((sentence, key) => {
    if (!sentence.includes(needle)) return sentence;
    let s = sentence;
    if (key !== 0 && !s.includes(close)) {
      let count: number;
      [s, count] = replaceCounting(s, quote, flag);
      if (count > 1) {
        // Several closing-quote candidates: the one not after a digit, else the rightmost.
        let count2: number;
        [s, count2] = replaceCounting(s, /(?<!\d)<!--wp-prime-or-quote-->/g, close);
        if (count2 === 0) {
          const dotted = s.lastIndexOf(`${flag}.`);
          const pos = dotted !== -1 ? dotted : s.lastIndexOf(flag);
          s = s.slice(0, pos) + close + s.slice(pos + flag.length);
        }
        s = s.replace(afterDigit, prime);
        s = s.replace(/(?<=\d)<!--wp-prime-or-quote-->/g, prime);
        s = s.replaceAll(flag, close);
      } else if (count === 1) {
        s = s.replaceAll(flag, close).replace(afterDigit, prime);
      } else {
        s = s.replace(afterDigit, prime);
      }
    } else {
      s = s.replace(afterDigit, prime).replace(quote, close);
    }
    return needle === '"' ? s.replaceAll('"', close) : s;
  });
  return sentences.join(open);
}

/** One run of text between elements. */
function texturizeText(text: string): string {
  let out = text;
  for (const [from, to] of STATIC) if (out.includes(from)) out = out.replaceAll(from, to);
  if (out.includes("'")) {
    out = applyAll(out, APOSTROPHE_RULES);
    out = primes(out, "'", '&#8242;', OPEN_SINGLE_FLAG, CLOSE_SINGLE);
    out = out.replaceAll(APOSTROPHE_FLAG, APOSTROPHE).replaceAll(OPEN_SINGLE_FLAG, OPEN_SINGLE);
  }
  if (out.includes('"')) {
    out = applyAll(out, QUOTE_RULES);
    out = primes(out, '"', '&#8243;', OPEN_QUOTE_FLAG, CLOSE_QUOTE);
    out = out.replaceAll(OPEN_QUOTE_FLAG, OPEN_QUOTE);
  }
  if (out.includes('-')) out = applyAll(out, DASH_RULES);
  if (TIMES_HINT.test(out)) out = out.replace(TIMES, '$1&#215;$2');
  return out.replace(LONE_AMPERSAND, '&#038;');
}

/** Tracks the no-texturize elements open at this point (WordPress's `_wptexturize_pushpop_element`). */
function pushPop(tag: string, open: string[]): void {
  const opening = tag.length > 1 && tag[1] !== '/';
  if (!opening && open.length === 0) return;
  const from = opening ? 1 : 2;
  const space = tag.indexOf(' ');
  const name = space === -1 ? tag.slice(from, -1) : tag.slice(from, space);
  if (!NO_TEXTURIZE.has(name)) return;
  if (opening) open.push(name);
  else if (open[open.length - 1] === name) open.pop();
}

/** WordPress's `wptexturize` (no shortcodes are registered here). */
export function texturize(html: string): string {
  if (html === '') return html;
  const parts = html.split(ELEMENT);
  const open: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === '') continue;
    if (part.startsWith('<')) {
      if (part.startsWith('<!--')) continue;
      parts[i] = part.replace(LONE_AMPERSAND, '&#038;');
      pushPop(parts[i]!, open);
    } else if (open.length === 0 && phpTrim(part) !== '') {
      parts[i] = texturizeText(part);
    }
  }
  return parts.join('');
}

/** WordPress's `convert_chars`: a lone `&` becomes `&#038;`. */
export function convertChars(text: string): string {
  return text.includes('&') ? text.replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1') : text;
}

/** WordPress's `capital_P_dangit` on titles. */
export function capitalPInTitle(text: string): string {
  return text.replaceAll('Wordpress', 'WordPress');
}

/** …and on content, where only a word start after a space, quote, `>` or `(` is changed. */
const CAPITAL_P_CONTENT = [' ', '&#8216;', OPEN_QUOTE, '>', '('].map(
  (before) => [`${before}Wordpress`, `${before}WordPress`] as const,
);

export function capitalPInContent(html: string): string {
  let out = html;
  for (const [from, to] of CAPITAL_P_CONTENT) out = out.replaceAll(from, to);
  return out;
}
