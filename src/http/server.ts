import { useGraphQlJit } from '@envelop/graphql-jit';
import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { authenticate as authenticateWithCredentials } from './authenticate';
import { bootstrapAdmin, type BootstrapResult, type Viewer } from '../users';
import type { Config } from '../config';
import { createContext, watchStatements, type AppContext, type ContextDeps } from '../context';
import { describeDbError, dialectOf, isDatabaseUnavailable, type Db } from '../db';
import { DomainError, serviceUnavailable, unexpectedError } from '../lib';
import { AuthThrottle, clientAddress, throttleCounters, throttleLimits } from './auth-throttle';
import { costBudgets, useOperationBudget } from '../graphql/budget';
import { toGraphQLError, useErrorCodes } from '../graphql/errors';
import { graphqlLimits, useGraphqlLimits } from '../graphql/limits';
import { createLogger, type Logger } from './logger';
import { useHttpLayer } from './plugin';
import { requestIdOf, requestLog } from './request-info';
import { useResponseCache } from './response-cache-plugin';
import { requestBudget } from './timeout';
import { yogaLogger } from '../graphql/yoga-logger';
import { useOps } from '../ops/plugin';
import { useExports } from '../feeds/plugin';
import { useCors } from '../rest/cors';
import { useRest } from '../rest/plugin';
import type { RouteRow } from '../rest/routes';
import { buildSchema } from '../graphql/schema';
import { useCalendarSofa } from '../rest/sofa';
import { useWebPage, WEB_PATHS } from '../web/plugin';
import {
  GRAPHIQL_PATHS,
  graphiqlOptions,
  renderGraphiQLPage,
  useGraphiqlAssets,
} from '../graphql/graphiql';
import { usePersistedOperationsOf } from '../graphql/persisted';
import { SDL_PATH, useSchemaSdl } from '../graphql/sdl';

/**
 * Resolves the caller of a request: anonymous without an `Authorization` header; a malformed,
 * wrong or revoked credential throws UNAUTHENTICATED (401), never anonymous.
 */
export type Authenticate = (request: Request, ctx: ContextDeps) => Promise<Viewer>;

export interface AppOptions {
  config: Config;
  db: Db;
  /** Injectable clock, so tests can pin "now". */
  now?: () => Date;
  authenticate?: Authenticate;
  /** The REST route table (default `ROUTES`); tests pass a copy with extra rows. */
  routes?: readonly RouteRow[];
  /** Where logs go (default: JSON lines on stdout at LOG_LEVEL); tests capture them. */
  logger?: Logger;
  /**
   * Create the first administrator when there is none (default true). Cluster workers pass false:
   * their primary did it once, before forking (src/http/cluster.ts).
   */
  bootstrap?: boolean;
}

export interface App {
  yoga: YogaServerInstance<Record<string, unknown>, AppContext>;
  deps: ContextDeps;
  /**
   * What start-up did about the first administrator (main.ts prints a generated token once);
   * with `bootstrap: false`, nothing: not created, nothing to warn about.
   */
  bootstrap: BootstrapResult;
  logger: Logger;
}

/** Builds the whole HTTP application without listening: tests call `app.yoga.fetch`. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, db } = options;
  const authenticate = options.authenticate ?? authenticateWithCredentials;
  const deps: ContextDeps = {
    config,
    db,
    dialect: dialectOf(config.databaseUrl),
    now: options.now ?? (() => new Date()),
  };
  const bootstrap: BootstrapResult =
    options.bootstrap === false
      ? { created: false, adminTokenIgnored: false, noCredentials: false }
      : await bootstrapAdmin(db, deps.now(), config.adminToken);
  const logger = options.logger ?? createLogger(config.logLevel);
  // Brute-force protection on credentials (src/http/auth-throttle.ts), shared with REDIS_URL.
  const throttle = new AuthThrottle(throttleLimits(config), throttleCounters(config));
  // Each GraphQL or REST operation's statements are charged to its request's budget.
  watchStatements(db);
  const yoga = createYoga<Record<string, unknown>, AppContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // GraphiQL from the package's own files, no CDN (src/graphql/graphiql.ts).
    graphiql: graphiqlOptions(config),
    renderGraphiQL: renderGraphiQLPage,
    logging: yogaLogger(logger),
    // The REST contract under {api_root}/calendar/events/v1, executed through this pipeline, and
    // the generic SOFA view for BI tools under {api_root}/calendar/rest.
    // The HTTP layer (request ids, limits, security headers, access log) comes first.
    plugins: [
      useHttpLayer(config, logger, '/graphql'),
      // CORS for every route, preflights included (src/rest/cors.ts; Yoga's own is off).
      useCors(config),
      // /healthz, /readyz, /metrics and the request metrics; the web page at / (src/ops, src/web).
      useOps({
        config,
        db,
        graphqlEndpoint: '/graphql',
        otherPaths: [...WEB_PATHS, ...GRAPHIQL_PATHS, SDL_PATH],
      }),
      useWebPage(config),
      // GraphiQL's files and the SDL under /graphql/ (src/graphql/graphiql.ts, sdl.ts).
      useGraphiqlAssets(),
      useSchemaSdl(),
      // iCalendar feeds and CSV exports beside the REST lists (src/feeds/plugin.ts), before them.
      useExports(config, options.routes),
      // Anonymous REST reads answered from memory while no write committed (RESPONSE_CACHE).
      useResponseCache(config, deps),
      useRest(config, options.routes),
      useCalendarSofa(config),
      // Only listed operations when GRAPHQL_PERSISTED_OPERATIONS is set (src/graphql/persisted.ts).
      usePersistedOperationsOf(config, options.routes),
      useGraphqlLimits(graphqlLimits(config)),
      // The estimated cost against the caller's budget; the runtime budget (src/graphql/budget.ts).
      useOperationBudget(costBudgets(config)),
      useErrorCodes(),
      // Executes validated documents compiled by graphql-jit, cached per parsed document (Yoga's
      // parse cache keeps the document objects): the REST routes' engine, for /graphql too.
      useGraphQlJit(),
    ],
    cors: false,
    context: async (initial) => {
      const client = clientAddress(initial.request, initial, config.trustProxy);
      const context = createContext(
        deps,
        await throttle.guard(initial.request, client, () => authenticate(initial.request, deps)),
        requestIdOf(initial.request),
        requestBudget(config, initial.request),
      );
      // Wrong event passwords are throttled per client and event (src/http/auth-throttle.ts).
      context.passwordGuesses = throttle.passwordGuesses(initial.request, client);
      return context;
    },
    maskedErrors: {
      // GraphQL's own errors and domain errors (src/graphql/errors.ts maps those of results and
      // of the context first) are meant for clients; anything else is a bug: log it and answer a
      // generic error, without stack or SQL.
      maskError(error, message) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (!original || original instanceof GraphQLError) return error as Error;
        if (original instanceof DomainError) {
          return toGraphQLError(original, error instanceof GraphQLError ? error : undefined);
        }
        // The database is down or unreachable: a clean 503, not a bug (src/db/errors.ts).
        if (isDatabaseUnavailable(original)) {
          const reason = describeDbError(original);
          (requestLog() ?? logger).warn({ reason }, 'database unavailable');
          return toGraphQLError(serviceUnavailable());
        }
        (requestLog() ?? logger).error({ err: original }, 'unexpected error');
        return toGraphQLError(unexpectedError(message));
      },
    },
  });
  return { yoga, deps, bootstrap, logger };
}
