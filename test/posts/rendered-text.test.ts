import fc from 'fast-check';
import {
  onlyParagraphs,
  parsedText,
  renderDescription,
  renderedText,
} from '../../src/posts/render';

/**
 * `renderedText` (JSON-LD's plain text) skips the sanitizer's parse when a text's only markup is
 * wpautop's paragraphs and line breaks and its only `&`s start entities. Both ways must give the
 * same text for every input: generated strings made of the characters and pieces the two ways
 * could read differently.
 */

const PIECES = [
  '<p>',
  '</p>',
  '<br />',
  '<br>',
  '<b>',
  '</b>',
  '<P>',
  '< p>',
  '<',
  '>',
  '&amp;',
  '&#8217;',
  '&#x2014;',
  '&nbsp;',
  '&lt;b&gt;',
  '&amp',
  '&bogus;',
  '&#;',
  '&',
  ';',
  '#',
  '"',
  "'",
  ' ',
  '\n',
  '\t',
  '\u00a0',
  'a',
  'Zoë',
  'мир',
  '🎷',
  '\0',
  '<!-- c -->',
  '<script>x</script>',
];

const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(''));

describe('renderedText: the plain text of a rendering', () => {
  it('gives what the sanitizer gives, for any text', () => {
    fc.assert(
      fc.property(text, (html) => {
        expect(renderedText(html)).toBe(parsedText(html));
      }),
      { numRuns: 5000 },
    );
  });

  it('gives what the sanitizer gives for rendered descriptions, which take the short way', () => {
    const words = fc.constantFrom('jazz', "it's", '"quoted"', 'a & b', '...', '--', 'café', '1/2');
    const paragraph = fc.array(words, { minLength: 1, maxLength: 12 }).map((w) => w.join(' '));
    const description = fc
      .array(paragraph, { minLength: 1, maxLength: 4 })
      .map((p) => p.join(fc.sample(fc.constantFrom('\n', '\n\n'), 1)[0]!));
    fc.assert(
      fc.property(description, (plain) => {
        const rendered = renderDescription(plain);
        expect(onlyParagraphs(rendered)).toBe(true);
        expect(renderedText(rendered)).toBe(parsedText(rendered));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves any other markup to the sanitizer', () => {
    for (const html of ['<p>a</p><b>b</b>', 'a < b', 'x\0y', 'AT&T', '<br>', '&#;']) {
      expect(onlyParagraphs(html)).toBe(false);
    }
    expect(renderedText('<p>One &#8220;two&#8221;</p>\n<p>x<br />\ny</p>')).toBe('One “two”\nx\ny');
  });
});
