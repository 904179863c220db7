import { parseAndSanitize, sanitizeRichText } from '../../src/lib/html';
import { seededTexts } from '../support/seeded-texts';

/**
 * `sanitizeRichText` answers plain text and bare paragraphs without running the sanitiser; its
 * answers must be the sanitiser's, character for character.
 */

/** Pieces of seeded texts (test/support/seeded-texts.ts): a failure names a replayable input. */
const PIECES = [
  'a',
  'Z',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '"',
  "'",
  '=',
  '/',
  'é',
  '😀',
  '\u00a0',
  '\u2028',
  '\u0085',
  '\ufeff',
  '\0',
  '<',
  '>',
  '&',
  '&amp;',
  '&nbsp;',
  '<p>',
  '</p>',
  '<P>',
  '<p >',
  '</p >',
  '<p class="x">',
  '<br>',
  '<br/>',
  '<b>',
  '</b>',
  '<script>',
  '</script>',
  '<!--',
  '-->',
  '<a href="javascript:x">',
  '</a>',
];

function texts(count: number, seed: number): Generator<string> {
  return seededTexts(PIECES, 14, count, seed);
}

describe('sanitizeRichText', () => {
  it('answers like the sanitiser for text, paragraphs and everything else', () => {
    let differing: string[] = [];
    for (const text of texts(20_000, 6)) {
      if (sanitizeRichText(text) !== parseAndSanitize(text)) differing.push(text);
    }
    expect(differing).toEqual([]);
    differing = [];
    for (const text of [
      '',
      '  Plain text  ',
      '<p>One</p>',
      ' <p>One</p>\n<p>Two "quoted" it\'s</p> ',
      '<p>Unclosed',
      '<p><p>nested</p></p>',
      '</p>',
      'Tom & Jerry',
      '<p>x</p>'.repeat(9000),
      'y'.repeat(70_000),
    ]) {
      if (sanitizeRichText(text) !== parseAndSanitize(text)) differing.push(text);
    }
    expect(differing).toEqual([]);
  });

  it('still strips what is not allowed', () => {
    expect(sanitizeRichText('<p onclick="x()">Hi<script>alert(1)</script></p>')).toBe('<p>Hi</p>');
    expect(sanitizeRichText('<p>a</p><img src="javascript:x">')).toBe('<p>a</p><img />');
  });
});
