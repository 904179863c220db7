import type { Caller, TestEnv } from '../harness';

/**
 * REST requests through the real HTTP pipeline (`yoga.fetch`), authenticated exactly like
 * `TestEnv.gql`: `as` sends the headers `env.authHeaders(as)` builds for that caller.
 */

export interface RestOptions {
  /** Who calls; anonymous when omitted. */
  as?: Caller;
  /** A raw `Authorization` header instead. */
  authorization?: string;
  /** JSON body (sent as `application/json`). */
  json?: unknown;
  /** Form body (sent as `application/x-www-form-urlencoded`). */
  form?: string | [string, string][];
  /** A raw body with its own content type. */
  raw?: { body: string; type: string };
  headers?: Record<string, string>;
  /** Namespace to call, default `calendar/events/v1`. */
  namespace?: string;
}

export interface RestResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON body (null for empty bodies). */
  body: T;
  text: string;
}

export class RestClient {
  constructor(private readonly env: TestEnv) {}

  /** Absolute URL of a path below the namespace (`/events?page=2`). */
  url(path: string, namespace = 'calendar/events/v1'): string {
    return `http://localhost${this.env.config.apiRoot}/${namespace}${path}`;
  }

  async request<T = any>(
    method: string,
    path: string,
    options: RestOptions = {},
  ): Promise<RestResponse<T>> {
    const headers: Record<string, string> = {
      ...(await this.env.authHeaders(options.as)),
      ...options.headers,
    };
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    } else if (options.form !== undefined) {
      body =
        typeof options.form === 'string'
          ? options.form
          : new URLSearchParams(options.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (options.raw) {
      body = options.raw.body;
      headers['content-type'] ??= options.raw.type;
    }
    const response = await this.env.app.yoga.fetch(this.url(path, options.namespace), {
      method,
      headers,
      body,
    });
    const text = await response.text();
    let parsed: unknown = null;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RestOptions): Promise<RestResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  head(path: string, options?: RestOptions): Promise<RestResponse> {
    return this.request('HEAD', path, options);
  }

  post<T = any>(path: string, json?: unknown, options: RestOptions = {}) {
    return this.request<T>('POST', path, { ...options, json: json ?? options.json });
  }

  put<T = any>(path: string, json?: unknown, options: RestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, json: json ?? options.json });
  }

  patch<T = any>(path: string, json?: unknown, options: RestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, json: json ?? options.json });
  }

  delete<T = any>(path: string, options?: RestOptions): Promise<RestResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }
}

/** The error envelope of a failed request, asserted in one go. */
export function expectError(
  response: RestResponse,
  status: number,
  code: string,
  params?: unknown,
): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.body.data.status).toBe(status);
  expect(typeof response.body.message).toBe('string');
  if (params !== undefined) expect(response.body.data.params).toEqual(params);
}
