import type { Config } from '../config';

/**
 * Security headers on every response (REST, GraphQL, SOFA, errors, preflights). The API answers
 * JSON, which no browser should render, frame or sniff, so the default Content-Security-Policy
 * allows nothing. The one HTML page, GraphiQL (GET /graphql from a browser), loads its scripts,
 * styles, icon and editor workers from this origin only (src/graphql/graphiql.ts) and runs no
 * inline script: its policy allows this origin and nothing else. Inline styles stay allowed:
 * GraphiQL's editor sets them at run time.
 */

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const GRAPHIQL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "worker-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
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
