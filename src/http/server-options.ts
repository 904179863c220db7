import { STATUS_CODES, type Server, type ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../config';
import { restError } from '../rest/errors';
import { securityHeaders } from './security-headers';

/**
 * node:http settings for the limits that only the HTTP parser can enforce (docs/security.md
 * "Request limits"): `maxHeaderSize` bounds the request line and headers together
 * (MAX_HEADER_BYTES; beyond → 431), `requestTimeout` bounds the time to receive a whole request
 * (slow clients) and `headersTimeout` the time to receive its headers. Use as
 * `answerClientErrors(createServer(serverOptions(config), app.yoga), config)`.
 */
export function serverOptions(config: Config): ServerOptions {
  const requestTimeout = config.requestTimeoutMs > 0 ? Math.max(config.requestTimeoutMs, 1000) : 0;
  return {
    maxHeaderSize: config.maxHeaderBytes,
    requestTimeout,
    headersTimeout: requestTimeout > 0 ? Math.min(60_000, requestTimeout) : 60_000,
  };
}

/** What the parser refused, as the contract's envelope. */
function refusal(code: string | undefined): { status: number; rest: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        rest: 'rest_headers_too_large',
        message: 'The request line and headers are larger than the server accepts.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        rest: 'rest_request_timeout',
        message: 'The request was not received in time.',
      };
    default:
      return { status: 400, rest: 'rest_bad_request', message: 'Malformed HTTP request.' };
  }
}

/**
 * Answers requests the HTTP parser rejects (headers too large, malformed, too slow) with the
 * contract's error envelope and the security headers, instead of node's empty responses.
 */
export function answerClientErrors(server: Server, config: Config): Server {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, rest, message } = refusal(error.code);
    const body = JSON.stringify(restError(status, rest, message).body);
    const headers = {
      'Content-Type': 'application/json; charset=UTF-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
      ...securityHeaders(config, 'application/json'),
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n\r\n${body}`);
  });
  return server;
}
