import type { GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { CompiledRoute } from './compile';

/**
 * The prepared operations of the routes the REST plugin executes, compiled to JavaScript
 * functions by graphql-jit, each once: same schema, resolvers and error semantics as the
 * executor, about twice the throughput on list pages (docs/performance.md). `jitRoutes` compiles
 * them all (the tests), `lazyJit` each on its first request (the plugin).
 */
export function jitRoutes(
  schema: GraphQLSchema,
  routes: readonly CompiledRoute[],
): Map<CompiledRoute, CompiledQuery> {
  const compiled = new Map<CompiledRoute, CompiledQuery>();
  for (const route of routes) if (route.document) compiled.set(route, jitRoute(schema, route));
  return compiled;
}

/** One route's operation, compiled. */
export function jitRoute(schema: GraphQLSchema, route: CompiledRoute): CompiledQuery {
  const query = compileQuery(schema, route.document!);
  if (!isCompiledQuery(query)) {
    const reasons = (query.errors ?? []).map((e) => e.message).join('; ');
    throw new Error(`REST operation ${route.field} does not compile: ${reasons}`);
  }
  return query;
}

/**
 * The routes' operations compiled on first use, each once: a process compiles (and keeps the
 * generated code of) the routes its clients call, not all 36 — a list or single read's compiled
 * operation is ~0.3 MB of source and more of machine code. Every route's operation compiles in the
 * tests (test/rest/unit/rest-jit.test.ts), so a first request cannot meet a compile error.
 */
export function lazyJit(schema: GraphQLSchema): (route: CompiledRoute) => CompiledQuery {
  const compiled = new Map<CompiledRoute, CompiledQuery>();
  return (route) => {
    let query = compiled.get(route);
    if (query === undefined) {
      query = jitRoute(schema, route);
      compiled.set(route, query);
    }
    return query;
  };
}
