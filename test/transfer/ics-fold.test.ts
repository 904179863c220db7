import fc from 'fast-check';
import { foldLines as libraryFold } from 'ical-generator';
import { foldLines } from '../../src/transfer/ics/build';

/**
 * Feeds fold their lines with their own copy of ical-generator's `foldLines` (which builds a
 * TextEncoder per character, a third of a feed's time): the same text for every input, so feeds
 * stay byte for byte what they were.
 */
describe('ICS line folding', () => {
  it('folds every text exactly as ical-generator does', () => {
    const line = fc.string({ unit: 'binary', maxLength: 300 });
    const lone = fc.constantFrom('\ud800', '\udbff', '\udc00', '\ud83d\ude00', 'é', '€', 'a');
    const text = fc
      .array(
        fc.oneof(
          line,
          fc.array(lone, { maxLength: 120 }).map((parts) => parts.join('')),
        ),
        {
          maxLength: 5,
        },
      )
      .map((lines) => lines.join('\r\n'));
    fc.assert(
      fc.property(text, (input) => {
        expect(foldLines(input)).toBe(libraryFold(input));
      }),
      { numRuns: 3000 },
    );
  });
});
