import { InvalidParamError, notFound, type InvalidParams } from '../lib';
import { coerceParam } from './coerce';
import type { CompiledRoute } from './compile';
import type { Params } from './params';

/**
 * A request's GraphQL variables: each parameter of the route that the request carries, coerced
 * by its GraphQL type (`coerce.ts`). Arguments become variables of the same name; a write's
 * other parameters become fields of its `input`. Parameters the request lacks stay absent, so
 * SDL defaults apply and services can tell "not given" from "cleared" (explicit null).
 * Every unusable parameter is reported in one 400.
 */
export function variablesFor(
  route: CompiledRoute,
  path: Record<string, string>,
  params: Params,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  const input: Record<string, unknown> = {};
  const problems: InvalidParams = {};
  for (const spec of route.params) {
    const fromPath = spec.in === 'path';
    const source: Record<string, unknown> = fromPath ? path : params;
    if (!Object.prototype.hasOwnProperty.call(source, spec.name)) continue;
    const raw = source[spec.name];
    if (fromPath && spec.name === 'id' && Number(raw) > 2 ** 31 - 1 && route.row.resource) {
      throw notFound(route.row.resource, Number(raw)); // no such id can exist
    }
    try {
      const value = coerceParam(spec.name, raw, spec.type, { field: spec.target === 'input' });
      if (spec.target === 'input') input[spec.name] = value;
      else variables[spec.name] = value;
    } catch (err) {
      if (!(err instanceof InvalidParamError)) throw err;
      Object.assign(problems, err.params);
    }
  }
  if (Object.keys(problems).length) throw new InvalidParamError(problems);
  if (route.row.input) variables[route.row.input] = input;
  return variables;
}
