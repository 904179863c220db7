import { buildSchema } from '../../../src/graphql/schema';
import { compileRoutes } from '../../../src/rest/compile';
import { jitRoutes, lazyJit } from '../../../src/rest/jit';
import { ROUTES } from '../../../src/rest/routes';

/**
 * The REST routes' operations are compiled by graphql-jit on their first request (lazyJit): every
 * one of them must compile, so that no first request meets a compile error.
 */
describe('compiled REST operations', () => {
  const schema = buildSchema();
  const routes = compileRoutes(schema, ROUTES);
  const executed = routes.filter((route) => route.document);

  it('compile for every route that runs an operation', () => {
    expect(executed.length).toBeGreaterThanOrEqual(30);
    const compiled = jitRoutes(schema, routes);
    expect([...compiled.keys()]).toEqual(executed);
    for (const query of compiled.values()) expect(typeof query.query).toBe('function');
  });

  it('compile once, on first use', () => {
    const compiledFor = lazyJit(schema);
    const route = executed[0]!;
    const first = compiledFor(route);
    expect(compiledFor(route)).toBe(first);
    expect(compiledFor(executed[1]!)).not.toBe(first);
  });
});
