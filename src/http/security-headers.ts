import type { Config } from '../config';

/**
 * Security headers on every response (REST, GraphQL, SOFA, errors, preflights). The API answers
 * JSON, which no browser should render, frame or sniff, so the default Content-Security-Policy
 * allows nothing. The one HTML page, GraphiQL (GET /graphql from a browser), loads its scripts,
 * styles and editor workers from unpkg.com and runs an inline bootstrap script: it gets a policy
 * allowing exactly that.
 */

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const GRAPHIQL_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline' https://unpkg.com",
  "style-src 'unsafe-inline' https://unpkg.com",
  "connect-src 'self' https://unpkg.com",
  'worker-src blob:',
  "img-src 'self' data: https://raw.githubusercontent.com",
  'font-src data: https://unpkg.com',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function securityHeaders(
  config: Pick<Config, 'hstsMaxAge'>,
  contentType: string | null,
): Record<string, string> {
  const html = (contentType ?? '').toLowerCase().startsWith('text/html');
  return {
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': html ? GRAPHIQL_CSP : API_CSP,
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(config.hstsMaxAge > 0
      ? { 'Strict-Transport-Security': `max-age=${config.hstsMaxAge}; includeSubDomains` }
      : {}),
  };
}

/** `securityHeaders` with the two possible answers computed once (they vary by page type only). */
export function securityHeadersFor(
  config: Pick<Config, 'hstsMaxAge'>,
): (contentType: string | null) => Record<string, string> {
  const api = securityHeaders(config, 'application/json');
  const html = securityHeaders(config, 'text/html');
  return (contentType) => ((contentType ?? '').toLowerCase().startsWith('text/html') ? html : api);
}
