import fc from 'fast-check';
import { getNamedType, isInputObjectType, type GraphQLInputType } from 'graphql';
import { InvalidParamError } from '../../src/lib/errors';
import { overlongList } from '../../src/graphql/limits';
import { loggableTarget, scrub } from '../../src/http/logger';
import { requestIdOf } from '../../src/http/request-info';
import { parseDateInput } from '../../src/lib/dates';
import { sanitizeRichText } from '../../src/lib/html';
import { toSlug } from '../../src/lib/slug';
import { coerceParam } from '../../src/rest/coerce';
import { parsePairs } from '../../src/rest/params';
import { buildSchema } from '../../src/graphql/schema';
import { HTML, deepList, fuzzSettings, junkJson, junkString } from './arbitraries';

/**
 * Properties of the pure pieces hostile input goes through first: the HTML sanitiser, REST
 * parameter parsing and coercion, date parsing, slugs, the list-length check and log
 * redaction. No database: many cases, fast.
 */

const { numRuns, seed } = fuzzSettings(300, 30);
const settings = { numRuns, seed };

/** HTML built from dangerous pieces, nested and glued together. */
const hostileHtml = fc
  .array(
    fc.oneof(
      fc.constantFrom(...HTML),
      fc.constantFrom(
        '<a href="JaVaScRiPt:alert(1)">x</a>',
        '<a href=" javascript:alert(1)">x</a>',
        '<a href="&#106;avascript:alert(1)">x</a>',
        '<a href="jav&#x09;ascript:alert(1)">x</a>',
        '<a href="vbscript:msgbox(1)">x</a>',
        '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
        '<img src=x:alert(1) onerror=eval(src)>',
        '<object data="x.swf"></object>',
        '<embed src="x.swf">',
        '<form action="https://evil.example"><input name=x></form>',
        '<base href="https://evil.example/">',
        '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
        '<link rel=stylesheet href="https://evil.example/x.css">',
        '<div style="width: expression(alert(1))">x</div>',
        '<p onclick="alert(1)" onmouseover=alert(1)>x</p>',
        '<svg><script>alert(1)</script></svg>',
        '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
        '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
        '<scr<script>ipt>alert(1)</scr</script>ipt>',
        '<!--<script>alert(1)</script>-->',
        '<![CDATA[<script>alert(1)</script>]]>',
        '<p>Hello <b>world</b> <a href="https://example.com">link</a></p>',
      ),
      junkString,
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

/** What must never survive sanitising, on any tag. */
const FORBIDDEN = [
  /<\s*script/i,
  /<\s*(iframe|object|embed|svg|math|style|form|input|base|meta|link)\b/i,
  /\son[a-z]+\s*=/i,
  /(href|src)\s*=\s*["']?\s*(javascript|vbscript|data):/i,
  /style\s*=/i,
];

const schema = buildSchema();
/** Every argument and write-input field of the schema: what REST parameters are coerced to. */
const inputTypes: [string, GraphQLInputType][] = [];
for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
  for (const field of Object.values(root.getFields())) {
    for (const arg of field.args) {
      const named = getNamedType(arg.type);
      if (isInputObjectType(named)) {
        for (const f of Object.values(named.getFields())) inputTypes.push([f.name, f.type]);
      } else inputTypes.push([arg.name, arg.type]);
    }
  }
}

describe('fuzz: the pure layers', () => {
  it('sanitises any HTML to the allowlist: no script, handler, style or dangerous URL survives', () => {
    fc.assert(
      fc.property(hostileHtml, (html) => {
        const clean = sanitizeRichText(html);
        for (const pattern of FORBIDDEN) {
          if (pattern.test(clean)) throw new Error(`${pattern} survived: ${clean}`);
        }
        expect(sanitizeRichText(clean)).toBe(clean);
      }),
      settings,
    );
  });

  it('coerces any JSON value for any parameter to a value or a 400 naming it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...inputTypes),
        junkJson,
        fc.boolean(),
        ([name, type], raw, field) => {
          try {
            coerceParam(name, raw, type, { field });
          } catch (error) {
            expect(error).toBeInstanceOf(InvalidParamError);
            expect(Object.keys((error as InvalidParamError).params)).toEqual([name]);
          }
        },
      ),
      settings,
    );
  });

  it('parses any query string or form into plain data without polluting prototypes', () => {
    const key = fc.oneof(
      fc.constantFrom(
        '__proto__[admin]',
        'constructor[prototype][admin]',
        'a[__proto__][x]',
        'a[][]',
        'a[0][1][2]',
        'a[',
        'a]',
        '[]',
        'a[b]c',
        'a[99999999]',
        'a[-1]',
      ),
      junkString,
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, junkString), { maxLength: 12 }), (pairs) => {
        parsePairs(pairs);
        expect(({} as Record<string, unknown>).admin).toBeUndefined();
        expect(({} as Record<string, unknown>).x).toBeUndefined();
      }),
      settings,
    );
  });

  it('parses any date text to a valid date or null, never throwing', () => {
    const now = new Date('2026-11-21T08:00:00Z');
    fc.assert(
      fc.property(
        fc.oneof(junkString, fc.double().map(String), fc.integer()),
        fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Pacific/Kiritimati'),
        (input, zone) => {
          const parsed = parseDateInput(input, zone, now);
          if (parsed !== null) expect(parsed.isValid).toBe(true);
        },
      ),
      settings,
    );
  });

  it('makes slugs of lowercase ASCII letters, digits and hyphens that fit their column', () => {
    fc.assert(
      fc.property(junkString, (text) => {
        const slug = toSlug(text);
        expect(slug).toMatch(/^[a-z0-9-]*$/);
        expect(slug.length).toBeLessThanOrEqual(200);
      }),
      settings,
    );
  });

  it('finds over-long lists at any depth without overflowing the stack', () => {
    expect(overlongList({ deep: deepList(100_000) }, 5)).toBeNull();
    fc.assert(
      fc.property(junkJson, (value) => {
        const found = overlongList({ input: { x: value } }, 100);
        if (found) expect(found.length).toBeGreaterThan(100);
      }),
      settings,
    );
  });

  it('never logs secret query values, and scrubs quoted SQL values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('password', 'token', 'api_key', 'secret', 'Authorization'),
        fc.string({ minLength: 8, maxLength: 30 }).filter((s) => /^[A-Za-z0-9]+$/.test(s)),
        (key, secret) => {
          const url = new URL(`http://localhost/events?page=2&${key}=${secret}`);
          expect(loggableTarget(url)).not.toContain(secret);
          expect(scrub(`insert into \`events\` (\`password\`) values ('${secret}')`)).not.toContain(
            secret,
          );
        },
      ),
      settings,
    );
  });

  it('keeps only safe incoming request ids', () => {
    fc.assert(
      fc.property(junkString, (incoming) => {
        let request: Request;
        try {
          request = new Request('http://localhost/', { headers: { 'x-request-id': incoming } });
        } catch {
          return; // not a valid header value: it cannot reach the server either
        }
        expect(requestIdOf(request)).toMatch(/^[A-Za-z0-9._:@+=/-]{1,128}$/);
      }),
      settings,
    );
  });
});
