import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  type GraphQLInputType,
} from 'graphql';
import type { CompiledRoute, ParamSpec } from '../compile';

/**
 * REST descriptions of parameters, derived from their GraphQL types: shared by `GET /` and
 * `GET /doc` so both say what routing and coercion actually do.
 */

/** JSON-schema-like type of a parameter: `{type, items?, enum?}`; JSON values stay untyped. */
export interface RestType {
  type?: string;
  items?: RestType;
  enum?: string[];
}

function restType(graphqlType: GraphQLInputType): RestType {
  const type = getNullableType(graphqlType);
  if (isListType(type)) return { type: 'array', items: restType(type.ofType) };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
  if (isInputObjectType(type)) return { type: 'object' };
  return scalarRestType(type.name);
}

/** The JSON type of a GraphQL scalar (`JSON`: any value), for `GET /` and `GET /doc`. */
export function scalarRestType(name: string): RestType {
  switch (name) {
    case 'Int':
      return { type: 'integer' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'String':
    case 'ID':
      return { type: 'string' };
    default:
      return {};
  }
}

/** What `GET /` lists for one parameter (docs/contract.md §11). */
export interface ArgDoc extends RestType {
  description: string;
  required: boolean;
  default?: unknown;
}

function argDoc(param: ParamSpec): ArgDoc {
  const { type, items, enum: values } = restType(param.type);
  return {
    ...(type ? { type } : {}),
    description: param.description,
    required: param.required,
    ...(param.default !== undefined ? { default: param.default } : {}),
    ...(items ? { items } : {}),
    ...(param.enum || values ? { enum: param.enum ?? values } : {}),
  };
}

export function argsDoc(route: CompiledRoute): Record<string, ArgDoc> {
  return Object.fromEntries(route.params.map((p) => [p.name, argDoc(p)]));
}
