import fc from 'fast-check';
import { etagOf, matchesEtag } from '../../../src/http/etag';

/**
 * Entity tags of bodies (src/http/etag.ts): the body's XXH64, base64url, quoted. The same bytes
 * give the same tag on every instance; any change of the body gives another.
 */

describe('etagOf', () => {
  it('is the XXH64 of the body, base64url (the reference vectors of XXH64, seed 0)', () => {
    expect(etagOf('')).toBe('"70bbN1HY6Zk"'); // ef46db3751d8e999
    expect(etagOf(Buffer.from('abc'))).toBe('"RLws9a13CZk"'); // 44bc2cf5ad770999
  });

  it('tags a text as its UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        expect(etagOf(text)).toBe(etagOf(Buffer.from(text, 'utf8')));
        expect(etagOf(text)).toMatch(/^"[A-Za-z0-9_-]{11}"$/);
      }),
    );
  });

  it('changes with any byte of the body', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 5000 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, at, flip) => {
          const changed = Uint8Array.from(bytes);
          changed[at % bytes.length]! ^= flip;
          expect(etagOf(changed)).not.toBe(etagOf(bytes));
        },
      ),
    );
  });

  it('is what If-None-Match is compared with', () => {
    const tag = etagOf('{"events":[]}');
    expect(matchesEtag(tag, tag)).toBe(true);
    expect(matchesEtag(`W/${tag}`, tag)).toBe(true);
    expect(matchesEtag(etagOf('{"events":[1]}'), tag)).toBe(false);
  });
});
