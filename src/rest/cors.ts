import type { CORSOptions } from 'graphql-yoga';
import type { Config } from '../config';

/** Response headers browsers may read: the list totals and pagination links. */
const EXPOSED_HEADERS = [
  'X-TEC-Total',
  'X-TEC-TotalPages',
  'X-WP-Total',
  'X-WP-TotalPages',
  'Link',
];

/**
 * The server's CORS policy (Yoga's CORS plugin applies it to every route, preflights
 * included): none unless CORS_ORIGINS lists origins; `*` allows any origin. Credentials are
 * sent in the Authorization header, so no cookie credentials are allowed.
 */
export function corsOptions(config: Config): CORSOptions {
  if (config.corsOrigins.length === 0) return false;
  return {
    origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  };
}
