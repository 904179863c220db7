import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { ANONYMOUS, type Viewer } from './auth/viewer';
import type { Config } from './config';
import { createContext, type AppContext, type ContextDeps } from './context';
import { dialectOf, type Db } from './db/knex';
import { AppError } from './errors';
import { buildSchema } from './schema';
import { ensureBuiltinAdmin } from './services/users';

/** Resolves the caller of a request (replaced by real credentials in the auth layer). */
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
}

/** Builds the whole HTTP application without listening: tests call `app.yoga.fetch`. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, db } = options;
  const authenticate = options.authenticate ?? (async () => ANONYMOUS);
  const deps: ContextDeps = {
    config,
    db,
    dialect: dialectOf(config.databaseUrl),
    now: options.now ?? (() => new Date()),
    builtinAdmin: null,
  };
  deps.builtinAdmin = await ensureBuiltinAdmin(db, deps.now());
  const yoga = createYoga<Record<string, unknown>, AppContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
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
  return { yoga, deps };
}
