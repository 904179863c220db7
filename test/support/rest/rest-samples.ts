import fs from 'node:fs';
import path from 'node:path';

/**
 * The reference implementation's captured responses (copied from shared/reference/samples into
 * test/fixtures/reference-samples, so tests never read outside the repository) and a comparison
 * of JSON *shapes*: same keys in the same order, same JSON types, same nesting; values aside.
 */

const DIR = path.join(__dirname, '..', '..', 'fixtures', 'reference-samples');

export interface Sample {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export function loadSample(name: string): Sample {
  const [statusLine = '', ...lines] = fs
    .readFileSync(path.join(DIR, `${name}.headers`), 'utf8')
    .split(/\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')),
  };
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Paths (like `venue.json_ld`) below which only the JSON type is compared. */
export type Opaque = (path: string) => boolean;

/** Relaxations of the comparison, each granted by a contract line (see rest-shape.test.ts). */
export interface Relax {
  /** Only the JSON type is compared below these paths. */
  opaque?: Opaque;
  /** Arrays at these paths may differ in length: the common prefix is compared. */
  anyLength?: (path: string) => boolean;
  /** Arrays at these paths are compared after sorting both by this key. */
  sortBy?: (path: string) => string | undefined;
}

/**
 * Differences of shape between our value and the reference's, as readable lines: a type that
 * differs, keys that differ (set or order), arrays of different lengths (the test recreated the
 * same data, so lengths must agree too). Elements are compared pairwise.
 */
export function shapeDiff(ours: unknown, theirs: unknown, relax: Relax = {}, at = '$'): string[] {
  const a = jsonType(ours);
  const b = jsonType(theirs);
  if (a !== b) return [`${at}: ours is ${a}, the reference's is ${b}`];
  if (relax.opaque?.(at)) return [];
  if (a === 'array') {
    let x = ours as unknown[];
    let y = theirs as unknown[];
    const key = relax.sortBy?.(at);
    if (key) [x, y] = [sorted(x, key), sorted(y, key)];
    if (x.length !== y.length) {
      if (!relax.anyLength?.(at))
        return [`${at}: ${x.length} items, the reference has ${y.length}`];
      const n = Math.min(x.length, y.length);
      [x, y] = [x.slice(0, n), y.slice(0, n)];
    }
    return x.flatMap((item, i) => shapeDiff(item, y[i], relax, `${at}[${i}]`));
  }
  if (a === 'object') {
    const x = ours as Record<string, unknown>;
    const y = theirs as Record<string, unknown>;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.join() !== ky.join()) {
      return [`${at}: keys ${JSON.stringify(kx)}, the reference has ${JSON.stringify(ky)}`];
    }
    return kx.flatMap((k) => shapeDiff(x[k], y[k], relax, `${at}.${k}`));
  }
  return [];
}

function sorted(items: unknown[], key: string): unknown[] {
  const name = (item: unknown) => String((item as Record<string, unknown>)?.[key] ?? '');
  return [...items].sort((p, q) => name(p).localeCompare(name(q)));
}
