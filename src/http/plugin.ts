import { STATUS_CODES } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config';
import { DomainError } from '../lib';
import { readBody, tooLarge } from '../rest/params';
import { errorResponse } from './error-response';
import { loggableTarget, type Logger } from './logger';
import { carryInfo, inRequestScope, requestInfo, type OnRequestPayload } from './request-info';
import { securityHeadersFor } from './security-headers';
import { requestTimeout, withTimeout } from './timeout';

/**
 * The HTTP layer every request goes through, whatever answers it (REST, GraphQL, SOFA, 404s):
 *
 * - a request id (a valid incoming `X-Request-Id`, else a UUID), echoed in `X-Request-Id`;
 * - request targets longer than MAX_URL_LENGTH → 414;
 * - GraphQL bodies above MAX_BODY_BYTES → 413 (the REST adapter checks its own), and GraphQL
 *   requests not answered within REQUEST_TIMEOUT_MS → 503 (the REST adapter times its own);
 * - security headers on every response;
 * - one access-log line per request: method, route, path (secret query values redacted),
 *   status, duration, request id — never headers or bodies.
 *
 * It must come first in the plugin list, so its request hook runs before the REST adapter's.
 */
export function useHttpLayer(config: Config, logger: Logger, graphqlEndpoint: string): Plugin {
  const security = securityHeadersFor(config);
  // The access line holds only the fields written below (the path already redacted by
  // loggableTarget), so it skips the logger's redaction pass, a third of its cost.
  const access = logger.child({}, { redact: { paths: [] } });
  /** GraphQL bodies above MAX_BODY_BYTES → 413; GraphQL requests timed by REQUEST_TIMEOUT_MS. */
  async function limitGraphql({
    request,
    url,
    fetchAPI,
    setRequest,
    endResponse,
    requestHandler,
    setRequestHandler,
  }: OnRequestPayload): Promise<void> {
    if (request.body) {
      let text: string;
      try {
        text = await readBody(request, config.maxBodyBytes);
      } catch (error) {
        const large = error instanceof DomainError && error.code === 'PAYLOAD_TOO_LARGE';
        endResponse(
          errorResponse(fetchAPI.Response, url, large ? 413 : 400, {
            rest: large ? 'rest_request_too_large' : 'rest_bad_request',
            graphql: large ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST',
            message: large
              ? tooLarge(config.maxBodyBytes).message
              : 'The request body could not be read.',
          }),
        );
        return;
      }
      // The body, now read within the limit, replaces the stream.
      const buffered = new fetchAPI.Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: text,
      });
      carryInfo(request, buffered);
      setRequest(buffered);
    }
    if (config.requestTimeoutMs > 0) {
      setRequestHandler(async (req, serverContext) => {
        const timeout = requestTimeout(config.requestTimeoutMs);
        try {
          return await withTimeout(
            Promise.resolve(requestHandler(req, serverContext)),
            config.requestTimeoutMs,
            () => timeout,
          );
        } catch (error) {
          if (error !== timeout) throw error;
          requestInfo(req).retryAfter = 1;
          return errorResponse(fetchAPI.Response, url, 503, {
            rest: 'rest_request_timeout',
            graphql: 'REQUEST_TIMEOUT',
            message: timeout.message,
          });
        }
      });
    }
  }

  return {
    instrumentation: {
      request: ({ request }, wrapped) => inRequestScope(logger, request, wrapped),
    },
    // Synchronous but for GraphQL requests (OnRequestPayload).
    onRequest(payload) {
      const { request, url, fetchAPI, endResponse } = payload;
      const info = requestInfo(request);
      info.url = url;
      if (url.pathname.length + url.search.length > config.maxUrlLength) {
        endResponse(
          errorResponse(fetchAPI.Response, url, 414, {
            rest: 'rest_uri_too_long',
            graphql: 'URI_TOO_LONG',
            message: `The request URL is longer than the limit of ${config.maxUrlLength} bytes.`,
          }),
        );
        return;
      }
      if (url.pathname !== graphqlEndpoint) return;
      info.route = graphqlEndpoint;
      return limitGraphql(payload);
    },
    onResponse({ request, response: answered, setResponse, fetchAPI }) {
      const info = requestInfo(request);
      const url = info.url ?? new URL(request.url, 'http://localhost');
      const response = withErrorBody(fetchAPI.Response, request, url, answered, graphqlEndpoint);
      const headers: Record<string, string> = {
        ...security(response.headers.get('content-type')),
        'X-Request-Id': info.id,
      };
      const retryAfter = response.status === 503 ? (info.retryAfter ?? 1) : info.retryAfter;
      if (
        retryAfter !== undefined &&
        (response.status === 429 || response.status === 503) &&
        !response.headers.has('retry-after')
      ) {
        headers['Retry-After'] = String(retryAfter);
      }
      setResponse(withHeaders(fetchAPI.Response, response, headers));
      access.info(
        {
          request_id: info.id,
          method: request.method,
          route: info.route ?? null,
          path: loggableTarget(url),
          status: response.status,
          duration_ms: Math.round((performance.now() - info.start) * 10) / 10,
        },
        'request',
      );
    },
  };
}

/**
 * Errors Yoga answers on the GraphQL endpoint without a body (405, 406, 415) get one in GraphQL's
 * format, so that every error a GraphQL client sees is readable. (The REST adapter always
 * answers with its envelope; other paths are left as they are.)
 */
function withErrorBody(
  ResponseCtor: typeof Response,
  request: Request,
  url: URL,
  response: Response,
  graphqlEndpoint: string,
): Response {
  // The path first: reading `body` of a response makes its stream.
  if (response.status < 400 || url.pathname !== graphqlEndpoint) return response;
  if (response.body !== null || request.method === 'HEAD') return response;
  const reason = STATUS_CODES[response.status] ?? 'Error';
  const code = reason.toUpperCase().replace(/[^A-Z]+/g, '_');
  const replaced = errorResponse(ResponseCtor, url, response.status, {
    rest: `rest_${code.toLowerCase()}`,
    graphql: code,
    message: `${reason}.`,
  });
  response.headers.forEach((value, name) => {
    if (name !== 'content-type' && name !== 'content-length') replaced.headers.set(name, value);
  });
  return replaced;
}

/** The response with these headers set (a copy when its headers are immutable). */
function withHeaders(
  ResponseCtor: typeof Response,
  response: Response,
  headers: Record<string, string>,
): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new ResponseCtor(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}
