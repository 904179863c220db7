import fc from 'fast-check';
import { flatText, toIsoWithOffset } from '../../src/lib';
import { renderedText } from '../../src/posts';

/**
 * `flatText` copies a string into one flat string for V8's fast `JSON.stringify`
 * (docs/performance.md): the copy must be the same text, whatever the string holds and however
 * it was built — ropes, slices, lone surrogates, the empty string.
 */

describe('flatText', () => {
  it('answers the same text for any string, built as a rope or as a slice', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const rope = a + b;
        expect(flatText(rope)).toBe(rope);
        const slice = `  ${rope}  `.trim();
        expect(flatText(slice)).toBe(slice);
        expect(flatText(a)).toBe(a);
      }),
    );
    expect(flatText('\uD800 alone')).toBe('\uD800 alone');
    expect(flatText('')).toBe('');
  });

  it('leaves the JSON-LD dates and texts as they were', () => {
    expect(toIsoWithOffset('2027-01-15 19:00:00', 'America/New_York')).toBe(
      '2027-01-15T19:00:00-05:00',
    );
    expect(toIsoWithOffset('not a date', 'UTC')).toBe('');
    const html = '<p>Fish &amp; chips</p>\n<p>at&nbsp;noon</p>\n';
    // Remembered: the second answer is the first's text.
    expect(renderedText(html)).toBe('Fish & chips\nat\u00a0noon');
    expect(renderedText(html)).toBe('Fish & chips\nat\u00a0noon');
  });
});
