import type { Request } from './scenarios';

/**
 * autocannon at fixed concurrency. autocannon ships no types and the harness adds no other
 * dependency, so the part used here is declared locally.
 */

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  pipelining?: number;
  requests?: AutocannonRequest[];
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  rps: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx, plus socket errors and timeouts. */
  failures: number;
}

let written = 0;

export async function load(
  base: string,
  request: Request,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const template: AutocannonRequest = {
    method: request.method,
    path: request.path,
    // Copies: whatever a client library adds to a headers object must not leak between uses.
    headers: { ...request.headers },
  };
  const body = request.body;
  if (body) {
    // A fresh body per request: writes create distinct events (unique titles and slugs).
    template.setupRequest = (r) => ({ ...r, body: body(written++) });
  }
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [template],
  });
  return {
    rps: result['2xx'] / Math.max(result.duration, 1e-3),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** One request outside the load, to see whether the route exists and what it answers. */
export async function probe(
  base: string,
  request: Request,
): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(base + request.path, {
    method: request.method,
    headers: { ...request.headers },
    body: request.body ? request.body(written++) : undefined,
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, json, text };
}
