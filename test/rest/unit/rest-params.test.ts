import { nestedPairs, parsePairs } from '../../../src/rest/params';

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

describe('parsePairs without bracket keys', () => {
  it('answers what the general parser answers, on generated query strings', () => {
    let seed = 11;
    const pick = <T>(items: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return items[seed % items.length]!;
    };
    const keys = ['a', 'b', 'per_page', '0', '1', '10', 'a[]', 'a[0]', 'b[x]', '', '[', 'x]'];
    const differing: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const pairs = Array.from(
        { length: i % 6 },
        (_v, j) => [pick(keys), `v${j}`] as [string, string],
      );
      const fast = JSON.stringify(parsePairs(pairs));
      const general = JSON.stringify(nestedPairs(pairs));
      if (fast !== general) differing.push(`${JSON.stringify(pairs)}: ${fast} vs ${general}`);
    }
    expect(differing).toEqual([]);
  });
});
