import { buildOperationNodeForField } from '@graphql-tools/utils';
import fc from 'fast-check';
import {
  OperationTypeNode,
  getNamedType,
  isInputObjectType,
  isNonNullType,
  print,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { buildSchema } from '../../src/graphql/schema';
import { describeEachDb, type Caller, type TestEnv } from '../support/harness';
import { CONTENT_TYPES, MALFORMED_JSON, fuzzSettings, junkJson, paramValue } from './arbitraries';
import { BASES, plausible, seedFixtures, type Fixtures } from './fixtures';
import { Violation, assertHeaders, assertNoLeak, dumpDatabase } from './invariants';

/**
 * Property-based fuzzing of GraphQL: every root field (queries and mutations) with junk
 * variables, plus hostile documents (syntax junk, deep nesting, alias floods, fragment cycles,
 * unknown fields and literal junk) and hostile HTTP (malformed JSON, wrong content types,
 * non-string queries, batches, GET). Invariants: never a 5xx, never an unexpected (masked)
 * error, every error has a message and an `extensions.code`, no stack or database internals in
 * any answer, the security headers always, and a rejected mutation leaves the database
 * byte-for-byte as it was.
 */

const { numRuns, seed } = fuzzSettings(6);
const schema = buildSchema();

interface Operation {
  kind: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
  document: string;
}

const OPERATIONS: Operation[] = (['query', 'mutation'] as const).flatMap((kind) => {
  const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  return Object.values(root.getFields()).map((field) => ({
    kind,
    field,
    document: print(
      buildOperationNodeForField({
        schema,
        kind: kind === 'query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
        field: field.name,
        circularReferenceDepth: 1,
        depthLimit: 3,
      }),
    ),
  }));
});

/** Hostile documents, valid JSON transport. */
const DOCUMENTS = [
  '',
  '{',
  '}}}}',
  'query',
  '{ __typename }',
  '{ nope }',
  '{ events { nope } }',
  '{ events(page: "one") { total } }',
  '{ events(per_page: 99999999999) { total } }',
  '{ event(id: 1) { id } event(id: 2) { id } }',
  '{ events { events { ...F } } } fragment F on Event { ...F }',
  '{ events { events { venue { events { events { venue { events { total } } } } } } } }',
  `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: events { total }`).join(' ')} }`,
  `{ events ${'{ events '.repeat(200)}${'}'.repeat(200)} }`,
  `query { ${'__typename '.repeat(6000)} }`,
  'subscription { events { total } }',
  'mutation { ping }',
  'mutation { delete_event(id: 1, force: true) { id } }',
  'query A { viewer { id } } query B { viewer { id } }',
  '{ events @skip(if: "x") { total } }',
  '{ __schema { types { name fields { name } } } }',
  '{ events(search: "\\u0000\\ud800") { total } }',
  '{ events(search: "\' OR 1=1 --") { total events { title } } }',
  '{ events(include: [1, 2, 3, "x", null]) { total } }',
];

/** Stands for a 100,000-level nested list, written when sent (fast-check could not print it). */
const DEEP = '[deep list]';

interface GqlRequest {
  as: Caller;
  /** An operation of OPERATIONS with junk variables, or a hostile document / transport. */
  op: number;
  variables: Record<string, unknown>;
  transport:
    | { kind: 'json' }
    | { kind: 'document'; index: number }
    | { kind: 'malformed'; index: number; type: string }
    | { kind: 'shape'; body: unknown }
    | { kind: 'get' }
    | { kind: 'batch' };
}

function variablesFor(op: Operation, fx: Fixtures): fc.Arbitrary<Record<string, unknown>> {
  const entries = op.field.args.map((arg) => {
    const named = getNamedType(arg.type);
    if (isInputObjectType(named)) {
      const fields = Object.values(named.getFields());
      const base = BASES[op.field.name] ?? {};
      return fc
        .subarray(fields, { maxLength: Math.min(4, fields.length) })
        .chain((chosen) =>
          fc.tuple(...chosen.map((f) => valueFor(f.name, f.type, fx).map((v) => [f.name, v]))),
        )
        .chain((pairs) =>
          fc.oneof(
            { weight: 8, arbitrary: fc.constant({ ...base, ...Object.fromEntries(pairs) }) },
            { weight: 1, arbitrary: junkJson },
          ),
        )
        .map((value) => [arg.name, value] as const);
    }
    return valueFor(arg.name, arg.type, fx).map((value) => [arg.name, value] as const);
  });
  return fc
    .tuple(...entries.map((entry) => fc.option(entry, { freq: isRequiredArg(entries) })))
    .map((pairs) => Object.fromEntries(pairs.filter((p) => p !== null)));
}

/** Required arguments are usually sent, optional ones half the time. */
function isRequiredArg(entries: unknown[]): number {
  return entries.length > 3 ? 2 : 5;
}

function valueFor(name: string, type: GraphQLInputType, fx: Fixtures): fc.Arbitrary<unknown> {
  const base = paramValue(plausible(name, type, fx));
  return isNonNullType(type) ? base : fc.oneof(base, fc.constant(null));
}

function requestFor(fx: Fixtures): fc.Arbitrary<GqlRequest> {
  return fc.nat({ max: OPERATIONS.length - 1 }).chain((op) =>
    fc.record({
      as: fc.constantFrom<Caller>(
        'administrator',
        'administrator',
        'editor',
        'contributor',
        'anonymous',
      ),
      op: fc.constant(op),
      variables: variablesFor(OPERATIONS[op]!, fx),
      transport: fc.oneof(
        { weight: 12, arbitrary: fc.constant({ kind: 'json' as const }) },
        {
          weight: 3,
          arbitrary: fc
            .nat({ max: DOCUMENTS.length - 1 })
            .map((index) => ({ kind: 'document' as const, index })),
        },
        {
          weight: 2,
          arbitrary: fc.record({
            kind: fc.constant('malformed' as const),
            index: fc.nat({ max: MALFORMED_JSON.length - 1 }),
            type: fc.constantFrom('application/json', ...CONTENT_TYPES),
          }),
        },
        {
          weight: 2,
          arbitrary: fc
            .oneof(
              fc.record({ query: junkJson }),
              fc.record({ query: fc.constant('{ viewer { id } }'), variables: junkJson }),
              fc.record({ query: fc.constant('{ viewer { id } }'), operationName: junkJson }),
              fc.record({ query: fc.constant('{ viewer { id } }'), extensions: junkJson }),
              junkJson,
              fc.constant(DEEP),
            )
            .map((body) => ({ kind: 'shape' as const, body })),
        },
        { weight: 1, arbitrary: fc.constant({ kind: 'get' as const }) },
        { weight: 1, arbitrary: fc.constant({ kind: 'batch' as const }) },
      ),
    }),
  );
}

async function send(env: TestEnv, req: GqlRequest): Promise<Response> {
  const op = OPERATIONS[req.op]!;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(await env.authHeaders(req.as)),
  };
  const url = 'http://localhost/graphql';
  const { transport } = req;
  let body: string;
  switch (transport.kind) {
    case 'json':
      body = JSON.stringify({ query: op.document, variables: req.variables });
      break;
    case 'document':
      body = JSON.stringify({ query: DOCUMENTS[transport.index], variables: req.variables });
      break;
    case 'malformed':
      body = MALFORMED_JSON[transport.index]!;
      headers['content-type'] = transport.type.replace(/[\r\n]/g, ' ');
      break;
    case 'shape':
      body =
        transport.body === DEEP
          ? `${'['.repeat(100_000)}1${']'.repeat(100_000)}`
          : (JSON.stringify(transport.body) ?? 'null');
      break;
    case 'batch':
      body = JSON.stringify([{ query: op.document, variables: req.variables }, { query: '{ x }' }]);
      break;
    case 'get': {
      const search = new URLSearchParams({
        query: op.document,
        variables: JSON.stringify(req.variables),
      });
      return env.app.yoga.fetch(`${url}?${search}`, { headers: { ...headers, accept: '*/*' } });
    }
  }
  return env.app.yoga.fetch(url, { method: 'POST', headers, body });
}

interface ErrorLike {
  message?: unknown;
  extensions?: { code?: unknown; unexpected?: unknown };
}

async function check(env: TestEnv, req: GqlRequest): Promise<number> {
  const op = OPERATIONS[req.op]!;
  const mutation = op.kind === 'mutation' || req.transport.kind !== 'json';
  const before = mutation ? await dumpDatabase(env) : '';
  const response = await send(env, req);
  const text = await response.text();
  const where = `${op.kind} ${op.field.name} via ${req.transport.kind} (${response.status})`;
  if (response.status >= 500) throw new Violation(`${where}: server error ${text}`);
  assertHeaders(response.headers, where);
  let body: { data?: Record<string, unknown> | null; errors?: ErrorLike[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Violation(`${where}: the answer is not JSON: ${text.slice(0, 300)}`);
  }
  const errors = body.errors ?? [];
  for (const error of errors) {
    if (typeof error.message !== 'string' || typeof error.extensions?.code !== 'string') {
      throw new Violation(`${where}: an error without message or code: ${JSON.stringify(error)}`);
    }
    if (error.extensions.code === 'INTERNAL_SERVER_ERROR' || error.extensions.unexpected) {
      throw new Violation(`${where}: an unexpected error: ${text}`);
    }
  }
  if (errors.length) assertNoLeak(text, where);
  const rejected = errors.length > 0 && !body.data?.[op.field.name];
  if (mutation && (rejected || response.status >= 400)) {
    if ((await dumpDatabase(env)) !== before) {
      throw new Violation(`${where}: a rejected request changed the database: ${text}`);
    }
  }
  return response.status;
}

describeEachDb('fuzz: GraphQL with hostile documents, variables and transport', (env) => {
  let fixtures: Fixtures;

  beforeAll(async () => {
    fixtures = await seedFixtures(env);
  });

  it(`keeps every invariant (${numRuns} cases per root field, seed ${seed})`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestFor(fixtures), async (req) => {
        const status = await check(env, req);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
      { numRuns: numRuns * OPERATIONS.length, seed, endOnFailure: true },
    );
    if (process.env.FUZZ_VERBOSE) console.log([...statuses].sort((a, b) => a[0] - b[0]));
  }, 600_000);
});
