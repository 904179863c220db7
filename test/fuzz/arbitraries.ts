import fc from 'fast-check';

/**
 * Generators of hostile input for the fuzz suites: wrong types, huge and negative numbers, deep
 * and long arrays, unicode and control characters, SQL and HTML metacharacters, path traversal,
 * absurd dates, malformed bodies. Valid-looking values are mixed in so that junk reaches the
 * deeper layers (services, repositories) instead of stopping at the first check.
 */

/**
 * Runs and seed: fixed for `npm test`; `npm run fuzz` sets FUZZ_RUNS (cases per REST route and
 * method, per GraphQL root field; `factor` times that for the fast pure properties) and may set
 * FUZZ_SEED.
 */
export function fuzzSettings(defaultRuns: number, factor = 1): { numRuns: number; seed: number } {
  const runs = Number(process.env.FUZZ_RUNS);
  const seed = Number(process.env.FUZZ_SEED);
  return {
    numRuns: Number.isInteger(runs) && runs > 0 ? runs * factor : defaultRuns,
    seed: Number.isInteger(seed) ? seed : 20261121,
  };
}

export const SQL = [
  "' OR '1'='1",
  "'; DROP TABLE events; --",
  '" OR ""="',
  '1; SELECT * FROM users',
  "Robert'); DELETE FROM venues;--",
  '%',
  '_',
  '\\',
  "\\'",
  '`',
  '1 UNION SELECT secret_hash FROM api_tokens',
  'NULL',
];

export const HTML = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<svg onload=alert(1)><circle/></svg>',
  '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>',
  '"><script>alert(document.cookie)</script>',
  '<style>*{display:none}</style>',
  '&lt;script&gt;',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
];

export const PATHS = [
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '....//....//',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  '%00',
  '%ZZ',
  '%',
  '%C0%AE%C0%AE%2F',
  'by-slug',
  '.',
  '..',
];

export const DATES = [
  '9999-99-99',
  '0000-00-00 00:00:00',
  '2027-02-30 10:00:00',
  '2027-13-01',
  '2027-01-01 24:00:00',
  '2027-01-01 23:59:60',
  '-271821-04-20',
  '+275760-09-13T00:00:00Z',
  '99999-01-01',
  '1e100',
  '99999999999999',
  '-99999999999',
  '8640000000000001',
  '0',
  'now',
  'tomorrow 9am',
  'next fortnight 99pm',
  '+99999999 weeks',
  '-5 days',
  'yesterday at 25:61',
  '1970-01-01',
  '2038-01-19 03:14:08',
  '2027-03-28 02:30:00',
  'T',
  '2027-01-01T10:00:00+99:99',
];

export const UNICODE = [
  '\u0000',
  'a\u0000b',
  '\u0007\u0008\u001b[31m',
  '\r\nX-Injected: 1',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Eevil',
  '\uFEFF',
  'ｆｕｌｌｗｉｄｔｈ',
  'İıŞğ',
  'ß',
  '🎉🎉🎉',
  '👩‍👩‍👧‍👦',
  'e\u0301',
  '\u200B',
  '日本語のイベント',
  'مرحبا',
  '\u2028\u2029',
];

export const NUMBERS = [
  0,
  -0,
  -1,
  1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  5e-324,
  0.5,
  -0.5,
  3.999999999,
];

export const NUMERIC_STRINGS = [
  '0',
  '-1',
  '00',
  '007',
  '1e5',
  '0x10',
  '1_000',
  ' 12 ',
  '+5',
  '2147483648',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '-Infinity',
  '1.',
  '.5',
  '١٢٣',
  '１２',
];

export const WORDS = [
  '',
  ' ',
  'true',
  'false',
  'TRUE',
  'yes',
  'null',
  'undefined',
  '[]',
  '{}',
  'publish',
  'draft',
  'trash',
  'asc',
  'DESC',
  'name',
  'Concerts',
  'jazz',
  'http://example.com/image.png',
  'https://example.com',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'mailto:a@example.com',
  '//evil.example',
  'ftp://x',
  'America/New_York',
  'Mars/Olympus',
  'UTC',
  'Europe/Paris',
  '$15',
  '10 – 20',
  'Free',
  '__proto__',
  'constructor',
  'toString',
];

export const junkString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SQL, ...HTML, ...PATHS, ...DATES, ...UNICODE) },
  { weight: 3, arbitrary: fc.constantFrom(...NUMERIC_STRINGS, ...WORDS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    // Around the column sizes (VARCHAR 16…2048 characters, TEXT 65,535 bytes): one more.
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom(17, 65, 101, 201, 256, 501, 1001, 2049, 16_385, 65_536),
        fc.constantFrom('x', 'é', '😀', '<b>x</b>', 'a b '),
      )
      .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length))),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.integer({ min: -5, max: 999_999 }), { minLength: 2, maxLength: 150 })
      .map((ids) => ids.join(',')),
  },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
);

export const junkNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 1, max: 50 }),
);

/** Any JSON value, hostile leaves, bounded nesting; long lists sometimes. */
export const junkJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: junkString },
    { weight: 3, arbitrary: junkNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(junkKey(), tie('value'), { maxKeys: 4 }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(fc.integer({ min: -3, max: 500 }), junkString), {
        minLength: 90,
        maxLength: 200,
      }),
    },
    { weight: 1, arbitrary: fc.integer({ min: 10, max: 400 }).map(deepList) },
  ),
})).value;

/** `[[[…[1]…]]]`, `depth` levels. */
export function deepList(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function junkKey(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('id', 'venue', 'organizer', 'title', 'name', '__proto__', 'constructor', ''),
    fc.string({ maxLength: 8 }),
  );
}

/** A value for a known parameter: hostile or plausible. */
export function paramValue(plausible: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: junkJson },
    { weight: 3, arbitrary: fc.constantFrom(...plausible) },
  );
}

/** How a REST value travels in a query string or form: as text, or in PHP bracket syntax. */
export function toPairs(name: string, value: unknown): [string, string][] {
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => toPairs(i % 2 ? `${name}[]` : `${name}[${i}]`, item));
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => toPairs(`${name}[${key}]`, item));
  }
  return [[name, value === null ? '' : String(value)]];
}

export const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded; charset=utf-16',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/vnd.api+json',
  'text/html',
  '',
  '*/*',
  'application/json\r\nX-Injected: 1',
];

export const MALFORMED_JSON = [
  '{',
  '}',
  '{"title": }',
  "{'title': 'x'}",
  '{"title": "x",}',
  '[]',
  '[1,2,3]',
  '"just a string"',
  '42',
  'null',
  'true',
  '{"a": NaN}',
  '{"a": 1e999}',
  '{"__proto__": {"admin": true}}',
  '{"constructor": {"prototype": {"x": 1}}}',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
  '\uFEFF{"title": "bom"}',
  '{"title": "\\ud800"}',
  '{"title": "x"} trailing',
];
