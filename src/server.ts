import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { authenticate as authenticateWithCredentials } from './auth/authenticate';
import type { Viewer } from './auth/viewer';
import type { Config } from './config';
import { createContext, type AppContext, type ContextDeps } from './context';
import { dialectOf, type Db } from './db/knex';
import { AppError } from './errors';
import { corsOptions } from './rest/cors';
import { useRest } from './rest/plugin';
import { buildSchema } from './schema';
import { bootstrapAdmin, type BootstrapResult } from './services/users';

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
}

export interface App {
  yoga: YogaServerInstance<Record<string, unknown>, AppContext>;
  deps: ContextDeps;
  /** What start-up did about the first administrator (main.ts prints a generated token once). */
  bootstrap: BootstrapResult;
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
  const bootstrap = await bootstrapAdmin(db, deps.now(), config.adminToken);
  const yoga = createYoga<Record<string, unknown>, AppContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // The REST contract under {api_root}/calendar/events/v1, executed through this pipeline.
    plugins: [useRest(config)],
    cors: corsOptions(config),
    context: async ({ request }) =>
      createContext(
        deps,
        await authenticate(request, deps),
        request.headers.get('x-request-id') ?? undefined,
      ),
    maskedErrors: {
      // AppErrors and GraphQL's own errors are meant for clients; anything else is a bug: log it
      // and answer a generic error, without stack or SQL.
      maskError(error, message) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (!original || original instanceof GraphQLError) return error as Error;
        console.error(
          JSON.stringify({
            level: 'error',
            msg: 'unexpected error',
            error: original instanceof Error ? original.stack : String(original),
          }),
        );
        return new AppError('INTERNAL_SERVER_ERROR', 'rest_internal_error', message);
      },
    },
  });
  return { yoga, deps, bootstrap };
}
