import { parsePairs } from '../../../src/rest/params';

/** PHP-style query/form parsing of the REST adapter (docs/contract.md §3). */
describe('parsePairs', () => {
  const parse = (query: string) => ({ ...parsePairs(new URLSearchParams(query)) });

  it('reads plain keys, keeping repeated ones as a list [ours]', () => {
    expect(parse('a=1&b=2')).toEqual({ a: '1', b: '2' });
    expect(parse('a=1&a=2&a=3')).toEqual({ a: ['1', '2', '3'] });
  });

  it('reads bracket lists, indexed lists in index order, and nested objects', () => {
    expect(parse('a[]=1&a[]=2')).toEqual({ a: ['1', '2'] });
    expect(parse('a[1]=y&a[0]=x')).toEqual({ a: ['x', 'y'] });
    expect(parse('venue[venue]=Hall&venue[city]=Paris')).toEqual({
      venue: { venue: 'Hall', city: 'Paris' },
    });
    expect(parse('o[0][organizer]=A&o[1][organizer]=B&o[1][email]=b@x')).toEqual({
      o: [{ organizer: 'A' }, { organizer: 'B', email: 'b@x' }],
    });
    expect(parse('a[]=1&a[5]=2&a[]=3')).toEqual({ a: ['1', '2', '3'] });
  });

  it('never touches prototypes and skips malformed keys', () => {
    const parsed = parsePairs(
      new URLSearchParams('__proto__[x]=1&constructor[prototype][y]=2&[]=3&a]=4'),
    );
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
    expect(Object.keys(parsed).sort()).toEqual(['__proto__', 'constructor']);
  });
});
