import { DomainError } from '../lib';
import { isPlainObject } from './coerce';

/**
 * Collects a REST request's parameters (docs/contract.md §3). Sources, highest priority first: JSON
 * body (`application/json`), form body (`application/x-www-form-urlencoded` or
 * `multipart/form-data`, any method), query string. Path parameters are kept apart: they only feed
 * the arguments that identify the record, so a body `slug` on a slug route is the record's new
 * slug.
 *
 * Query strings and form bodies follow PHP's conventions, which existing clients rely on:
 * `a[]=1&a[]=2`, `a[0]=1`, `venue[city]=X`; a repeated plain key (`a=1&a=2`) becomes a list
 * **[ours]** (PHP keeps the last one).
 */

export type Params = Record<string, unknown>;

export function tooLarge(limit: number): DomainError {
  return new DomainError(
    'PAYLOAD_TOO_LARGE',
    'too_large',
    `The request body is larger than the limit of ${limit} bytes.`,
  );
}

export function invalidJson(detail: string): DomainError {
  return new DomainError('BAD_USER_INPUT', 'invalid_json', `Invalid JSON body passed: ${detail}`);
}

/** The body as text, refusing more than `limit` bytes without reading them all. */
export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Query string and body parameters, merged by priority. */
export async function collectParams(
  request: Request,
  url: URL,
  maxBodyBytes: number,
): Promise<Params> {
  const query = parsePairs(url.searchParams);
  const text = await readBody(request, maxBodyBytes);
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  let body: Params = {};
  if (text.trim() !== '') {
    if (type === 'application/json' || type.endsWith('+json')) body = parseJson(text);
    else if (type === 'application/x-www-form-urlencoded') {
      body = parsePairs(new URLSearchParams(text));
    } else if (type === 'multipart/form-data') {
      body = await parseMultipart(text, request.headers.get('content-type')!);
    }
  }
  return { ...query, ...body };
}

function parseJson(text: string): Params {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalidJson(err instanceof Error ? err.message : String(err));
  }
  if (!isPlainObject(value)) throw invalidJson('the body must be a JSON object.');
  return value;
}

async function parseMultipart(text: string, contentType: string): Promise<Params> {
  let form: FormData;
  try {
    form = await new Response(text, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return {};
  }
  const pairs: [string, string][] = [];
  form.forEach((value, key) => {
    if (typeof value === 'string') pairs.push([key, value]);
  });
  return parsePairs(pairs);
}

/** Builds nested parameters from `key=value` pairs with PHP bracket keys. */
export function parsePairs(pairs: Iterable<[string, string]>): Params {
  const list = [...pairs];
  // Most query strings have no bracket keys (`per_page=10&page=2`): no nesting to build. (Keys
  // that are all indexes make a list below, as bracket lists do.)
  const flat = list.every(([key]) => key !== '' && !key.includes('[') && !key.includes(']'));
  if (flat && !list.every(([key]) => /^\d+$/.test(key))) return flatPairs(list);
  return nestedPairs(list);
}

/** `parsePairs` of any keys (exported for the test that compares both ways). */
export function nestedPairs(list: readonly [string, string][]): Params {
  const root: Params = Object.create(null);
  for (const [key, value] of list) {
    const match = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(key);
    if (!match) continue;
    const name = match[1]!;
    const segments = [...match[2]!.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
    if (segments.length === 0) {
      const previous = root[name];
      if (previous instanceof Repeated) previous.values.push(value);
      else if (typeof previous === 'string') root[name] = new Repeated([previous, value]);
      else root[name] = value;
      continue;
    }
    let node: Record<string, unknown> = root;
    let slot = name;
    for (const segment of segments) {
      let child = node[slot];
      if (!isBranch(child)) {
        child = Object.create(null) as Record<string, unknown>;
        node[slot] = child;
      }
      node = child as Record<string, unknown>;
      slot = segment === '' ? String(nextIndex(node)) : segment;
    }
    node[slot] = value;
  }
  return finish(root) as Params;
}

/** `parsePairs` of keys without brackets: a key sent more than once becomes a list. */
function flatPairs(list: [string, string][]): Params {
  const out: Params = Object.create(null);
  for (const [key, value] of list) {
    const previous = out[key];
    if (previous === undefined) out[key] = value;
    else if (typeof previous === 'string') out[key] = [previous, value];
    else (previous as string[]).push(value);
  }
  return out;
}

/** A plain key sent more than once. */
class Repeated {
  constructor(readonly values: string[]) {}
}

function isBranch(value: unknown): boolean {
  return isPlainObject(value) && !(value instanceof Repeated);
}

function nextIndex(node: Record<string, unknown>): number {
  const indexes = Object.keys(node)
    .filter((k) => /^\d+$/.test(k))
    .map(Number);
  return indexes.length ? Math.max(...indexes) + 1 : 0;
}

/** Branches whose keys are all indexes become arrays (in index order); the rest objects. */
function finish(value: unknown): unknown {
  if (value instanceof Repeated) return value.values;
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => finish(value[String(k)]));
  }
  const out: Record<string, unknown> = Object.create(null);
  for (const key of keys) out[key] = finish(value[key]);
  return out;
}
