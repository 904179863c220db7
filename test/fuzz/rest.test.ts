import fc from 'fast-check';
import { compileRoutes, type CompiledRoute } from '../../src/rest/compile';
import { ROUTES, type HttpMethod } from '../../src/rest/routes';
import { buildSchema } from '../../src/graphql/schema';
import { describeEachDb, type Caller, type TestEnv } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';
import {
  CONTENT_TYPES,
  MALFORMED_JSON,
  NUMERIC_STRINGS,
  PATHS,
  fuzzSettings,
  junkJson,
  junkString,
  paramValue,
  toPairs,
} from './arbitraries';
import { BASES, plausible, seedFixtures, type Fixtures } from './fixtures';
import { Violation, assertEnvelope, assertHeaders, assertNoLeak, dumpDatabase } from './invariants';

/**
 * Property-based fuzzing of every REST route and method (the route table drives it): junk
 * parameters in every place and encoding, junk path ids and slugs, junk bodies and content
 * types, junk credentials. Invariants (docs/security.md): never a 5xx; every
 * 4xx is the contract's envelope with `data.status` equal to the HTTP status and leaks no stack
 * or database internals; every response carries the security headers; and a rejected write
 * leaves the database byte-for-byte as it was. `npm test` runs a fixed seed and a bounded number
 * of cases; `npm run fuzz` (FUZZ_RUNS, FUZZ_SEED) runs many more.
 */

const { numRuns, seed } = fuzzSettings(10);
const NS = 'calendar/events/v1';

interface Endpoint {
  route: CompiledRoute;
  method: HttpMethod | 'HEAD';
}

interface FuzzRequest {
  /** Index in ENDPOINTS (kept small so counterexamples print readably). */
  endpoint: number;
  as: Caller;
  path: PathChoice;
  params: [string, unknown][];
  /** Extra query pairs: duplicates and conflicts of the parameters. */
  extra: [string, string][];
  encoding: 'query' | 'json' | 'form' | 'multipart' | 'malformed' | 'wrong-type';
  contentType: string;
  /** A MALFORMED_JSON entry (by index) or a short random text. */
  malformed: number | string;
  authorization: string | null;
}

const ENDPOINTS: Endpoint[] = compileRoutes(buildSchema(), ROUTES).flatMap((route) => [
  ...route.row.methods.map((method) => ({ route, method })),
  ...(route.row.methods.includes('GET') ? [{ route, method: 'HEAD' as const }] : []),
]);

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Where a request goes: for the id and slug in the path, a number picks the n-th live record of
 * the route's collection when the request is sent (records come and go as the fuzzer writes), a
 * string is sent as it is.
 */
interface PathChoice {
  id: number | string;
  slug: number | string;
}

function pathFor(): fc.Arbitrary<PathChoice> {
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.nat({ max: 50 }) },
    { weight: 1, arbitrary: fc.constantFrom(...NUMERIC_STRINGS, '99999999999999999999') },
    { weight: 1, arbitrary: fc.nat({ max: 200 }).map(String) },
  );
  const slug = fc.oneof(
    { weight: 6, arbitrary: fc.nat({ max: 50 }) },
    { weight: 1, arbitrary: fc.constantFrom(...PATHS) },
    { weight: 1, arbitrary: junkString.map(percentEncode) },
  );
  return fc.record({ id, slug });
}

const TABLES: Record<string, string> = {
  events: 'events',
  venues: 'venues',
  organizers: 'organizers',
  categories: 'terms',
  tags: 'terms',
};

/** The path of `route` for this choice, against the records that exist now. */
async function resolvePath(
  env: TestEnv,
  route: CompiledRoute,
  choice: PathChoice,
): Promise<string> {
  const template = route.row.path;
  if (!/\(\?P</.test(template)) return template;
  const collection = template.split('/')[1]!;
  let live: { id: number; slug: string }[] = [];
  if (typeof choice.id === 'number' || typeof choice.slug === 'number') {
    const query = env.db(TABLES[collection]!).select('id', 'slug').orderBy('id');
    if (TABLES[collection] === 'terms') {
      query.where('taxonomy', collection === 'tags' ? 'post_tag' : 'category');
    } else query.whereNot('status', 'trash');
    live = await query;
    if (live.length === 0) {
      // Everything was deleted by earlier cases: make one so the route is exercised again.
      const field = `create_${collection === 'categories' ? 'category' : collection.replace(/s$/, '')}`;
      const made = await new RestClient(env).post(`/${collection}`, BASES[field], {
        as: 'administrator',
      });
      live = [{ id: made.body.id, slug: made.body.slug }];
    }
  }
  const pick = (n: number) => live[n % Math.max(live.length, 1)];
  const id = typeof choice.id === 'number' ? String(pick(choice.id)?.id ?? 1) : choice.id;
  const slug = typeof choice.slug === 'number' ? (pick(choice.slug)?.slug ?? 'none') : choice.slug;
  return template.replace(/\(\?P<id>[^)]*\)/, id).replace(/\(\?P<slug>[^)]*\)/, slug);
}

/** Every UTF-8 byte percent-encoded (lone surrogates become U+FFFD, as on the wire). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

function requestFor(index: number, fx: Fixtures): fc.Arbitrary<FuzzRequest> {
  const endpoint = ENDPOINTS[index]!;
  const specs = endpoint.route.params.filter((p) => p.in !== 'path');
  const names = [...specs.map((p) => p.name), 'password', 'force', 'context', 'junk[]'];
  const typeOf = new Map(specs.map((p) => [p.name, p.type] as const));
  const params = fc
    .subarray(names, { maxLength: Math.min(4, names.length) })
    .chain((chosen) =>
      fc.tuple(
        ...chosen.map((name) =>
          (typeOf.has(name) ? paramValue(plausible(name, typeOf.get(name)!, fx)) : junkJson).map(
            (value) => [name, value] as [string, unknown],
          ),
        ),
      ),
    )
    .map((pairs) => pairs as [string, unknown][]);
  return fc.record({
    endpoint: fc.constant(index),
    as: fc.constantFrom<Caller>(
      'administrator',
      'administrator',
      'administrator',
      'editor',
      'contributor',
      'subscriber',
      'anonymous',
    ),
    path: pathFor(),
    params,
    extra: fc.array(fc.tuple(fc.constantFrom(...names, 'page', 'per_page'), junkString), {
      maxLength: 3,
    }),
    encoding: fc.constantFrom(
      'query',
      'json',
      'json',
      'form',
      'multipart',
      'malformed',
      'wrong-type',
    ),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    malformed: fc.oneof(fc.nat({ max: MALFORMED_JSON.length - 1 }), fc.string({ maxLength: 40 })),
    authorization: fc.oneof(
      { weight: 12, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc.oneof(
          fc.constantFrom('Bearer', 'Bearer ', 'Basic', 'Basic !!!', 'Digest x', 'Bearer cal_1_x'),
          junkString.map((s) => `Bearer ${s.replace(/[\r\n\0]/g, '')}`),
          fc
            .tuple(fc.constantFrom('admin', 'editor-1', 'nobody'), fc.string({ maxLength: 12 }))
            .map(([login, pw]) => `Basic ${Buffer.from(`${login}:${pw}`).toString('base64')}`),
        ),
      },
    ),
  });
}

/** Builds the HTTP request and sends it. */
async function send(env: TestEnv, rest: RestClient, req: FuzzRequest, path: string) {
  const endpoint = ENDPOINTS[req.endpoint]!;
  const body: Record<string, unknown> = {
    ...(endpoint.method === 'POST' && endpoint.route.field ? BASES[endpoint.route.field] : {}),
  };
  for (const [name, value] of req.params) body[name] = value;
  const query = new URLSearchParams(req.extra);
  const headers: Record<string, string> = { ...(await env.authHeaders(req.as)) };
  if (req.authorization !== null) headers.authorization = req.authorization;
  let payload: string | undefined;
  const bodyless = endpoint.method === 'GET' || endpoint.method === 'HEAD';
  const encoding = bodyless ? 'query' : req.encoding;
  switch (encoding) {
    case 'query':
      for (const [name, value] of Object.entries(body)) {
        for (const [k, v] of toPairs(name, value)) query.append(k, v);
      }
      break;
    case 'json':
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
      break;
    case 'form':
    case 'multipart': {
      const pairs = Object.entries(body).flatMap(([name, value]) => toPairs(name, value));
      if (encoding === 'form') {
        payload = new URLSearchParams(pairs).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      } else {
        const boundary = 'fuzzboundary';
        payload = `${pairs
          .map(
            ([k, v]) =>
              `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
          )
          .join('')}--${boundary}--\r\n`;
        headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      }
      break;
    }
    case 'malformed':
      payload = typeof req.malformed === 'number' ? MALFORMED_JSON[req.malformed] : req.malformed;
      headers['content-type'] = 'application/json';
      break;
    case 'wrong-type':
      payload = JSON.stringify(body);
      headers['content-type'] = req.contentType.replace(/[\r\n]/g, ' ');
      break;
  }
  const search = query.toString();
  const url = `${rest.url(path)}${search ? `?${search}` : ''}`;
  return env.app.yoga.fetch(url, { method: endpoint.method, headers, body: payload });
}

async function check(env: TestEnv, rest: RestClient, req: FuzzRequest): Promise<number> {
  const endpoint = ENDPOINTS[req.endpoint]!;
  const write = WRITE.has(endpoint.method);
  const path = await resolvePath(env, endpoint.route, req.path);
  const before = write ? await dumpDatabase(env) : '';
  const response = await send(env, rest, req, path);
  const text = await response.text();
  const where = `${endpoint.method} ${path} (${response.status})`;
  if (response.status >= 500) throw new Violation(`${where}: server error ${text}`);
  assertHeaders(response.headers, where);
  const inNamespace = new URL(rest.url(path)).pathname.includes(`/${NS}`);
  if (response.status >= 400 && endpoint.method !== 'HEAD' && inNamespace) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Violation(`${where}: error body is not JSON: ${text.slice(0, 300)}`);
    }
    assertEnvelope(response.status, body, where);
    assertNoLeak(text, where);
  }
  if (write && response.status >= 400) {
    const after = await dumpDatabase(env);
    if (after !== before) throw new Violation(`${where}: a rejected write changed the database`);
  }
  return response.status;
}

describeEachDb('fuzz: every REST route with hostile input', (env) => {
  const rest = new RestClient(env);
  let fixtures: Fixtures;

  beforeAll(async () => {
    fixtures = await seedFixtures(env);
  });

  it(`keeps every invariant on every route and method (${numRuns} cases each, seed ${seed})`, async () => {
    const statuses = new Map<number, number>();
    for (const i of ENDPOINTS.keys()) {
      await fc.assert(
        fc.asyncProperty(requestFor(i, fixtures), async (req) => {
          const status = await check(env, rest, req);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }),
        { numRuns, seed: seed + i, endOnFailure: true },
      );
    }
    if (process.env.FUZZ_VERBOSE) console.log([...statuses].sort((a, b) => a[0] - b[0]));
  }, 600_000);
});
