import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { GRAPHQL_ONLY, RENDERED_AS, RENDERED_ONLY } from '../compile';
import { scalarRestType } from './describe';
import {
  COMPONENTS,
  COMPONENT_OF,
  DROP_NULL_TYPES,
  ERROR_SCHEMA,
  IMAGE_SIZE,
  described,
  ref,
  type Schema,
  type WireRules,
} from './wire';

export { ref, type Schema } from './wire';

/**
 * JSON schemas of `GET /doc` (OpenAPI 3.0 dialect), derived from the GraphQL types — fields,
 * order, types and descriptions — and then bent exactly as the REST presenters (`present.ts`)
 * bend the GraphQL result on the wire (the rules in `wire.ts`, the only hand-written
 * part). `rest-doc.test.ts` validates real responses against these schemas.
 */

/**
 * Fields of a GraphQL object type that REST bodies carry, in SDL (= wire) order; a field sent
 * rendered (`RENDERED_AS`) is described as its rendered form.
 */
function restFields(type: GraphQLObjectType): GraphQLField<unknown, unknown>[] {
  const fields = type.getFields();
  return Object.values(fields)
    .filter((f) => !GRAPHQL_ONLY.has(`${type.name}.${f.name}`))
    .filter((f) => !RENDERED_ONLY.has(`${type.name}.${f.name}`))
    .map((f) => {
      const rendered = RENDERED_AS.get(`${type.name}.${f.name}`);
      return rendered ? { ...f, description: fields[rendered]!.description } : f;
    });
}

function scalarSchema(name: string): Schema {
  return { ...scalarRestType(name) };
}

/** Schema of a value of an output type; `objectSchema` adds `nullable` where nulls are sent. */
function outputSchema(type: GraphQLOutputType): Schema {
  const inner = getNullableType(type);
  if (isListType(inner)) return { type: 'array', items: outputSchema(inner.ofType) };
  if (isEnumType(inner)) return { type: 'string', enum: inner.getValues().map((v) => v.name) };
  if (isScalarType(inner)) return scalarSchema(inner.name);
  const component = COMPONENT_OF[inner.name];
  if (component) return ref(component);
  if (isObjectType(inner)) {
    return objectSchema(
      [inner],
      DROP_NULL_TYPES.has(inner.name) ? { dropNull: true } : {},
      inner.description,
    );
  }
  return {};
}

/** `true` when the presenter may omit this field of a type under `rules`. */
function mayBeAbsent(field: GraphQLField<unknown, unknown>, rules: WireRules): boolean {
  const nullable = !isNonNullType(field.type);
  if (rules.partial || rules.optional?.includes(field.name)) return true;
  if (nullable && rules.dropNull) return true;
  if (rules.fields?.[field.name]) return false;
  if (rules.dropEmptyExcept) {
    if (rules.dropEmptyExcept.includes(field.name)) return false;
    // `""`, `"0"` and `false` are dropped too: only numbers, lists and objects always stay.
    const named = getNamedType(field.type);
    const emptiable = isScalarType(named) && ['String', 'ID', 'Boolean'].includes(named.name);
    return nullable || emptiable || isEnumType(named);
  }
  return false;
}

/** Merged types (Category + Tag) take the shared interface's wording (`Term.taxonomy`). */
function fieldDescription(
  types: GraphQLObjectType[],
  field: GraphQLField<unknown, unknown>,
): string | null | undefined {
  if (types.length === 1) return field.description;
  for (const type of types) {
    const shared = type.getInterfaces().find((i) => field.name in i.getFields());
    if (shared) return shared.getFields()[field.name]!.description;
  }
  return field.description;
}

function objectSchema(
  types: GraphQLObjectType[],
  rules: WireRules,
  description?: string | null,
): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const type of types) {
    for (const field of restFields(type)) {
      if (field.name in properties) continue;
      const absent = mayBeAbsent(field, rules);
      const override = rules.fields?.[field.name];
      let schema = override ?? described(outputSchema(field.type), fieldDescription(types, field));
      // A null the presenter sends as it is.
      if (!override && !absent && !isNonNullType(field.type)) {
        schema =
          '$ref' in schema
            ? // Every component is an object; 3.0 reads `nullable` only beside a `type`.
              { type: 'object', nullable: true, allOf: [schema] }
            : nullable(schema);
      }
      properties[field.name] = schema;
      if (!absent && types.every((t) => field.name in t.getFields())) required.push(field.name);
    }
  }
  return {
    type: 'object',
    ...(description ? { description } : {}),
    ...(required.length ? { required } : {}),
    properties,
  };
}

function objectType(schema: GraphQLSchema, name: string): GraphQLObjectType {
  const type: GraphQLNamedType | undefined = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`GET /doc: the GraphQL schema has no type ${name}.`);
  return type;
}

/** `components.schemas`: the contract's eight, then `Error`. */
export function componentSchemas(schema: GraphQLSchema): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const { name, from, rules, description } of COMPONENTS) {
    if (!from) {
      out[name] = IMAGE_SIZE;
      continue;
    }
    const types = from.map((t) => objectType(schema, t));
    out[name] = objectSchema(types, rules ?? {}, description ?? types[0]!.description);
  }
  out.Error = ERROR_SCHEMA;
  return out;
}

/** Schema of what a route answers: a component, or a list envelope built from its type. */
export function responseSchema(type: GraphQLOutputType): Schema {
  return outputSchema(type);
}

/**
 * Schema of a REST parameter or body field of an input type, as `coerce.ts` accepts it:
 * input objects with an `id` also take a bare id. `clearable` (write fields): an explicit null
 * clears a nullable field, so it is `nullable`.
 */
export function inputSchema(type: GraphQLInputType, clearable = false): Schema {
  const inner = getNullableType(type) as GraphQLInputType;
  const base = ((): Schema => {
    if (isListType(inner)) return { type: 'array', items: inputSchema(inner.ofType) };
    if (isEnumType(inner)) return { type: 'string', enum: inner.getValues().map((v) => v.name) };
    if (isInputObjectType(inner)) {
      const properties: Record<string, Schema> = {};
      for (const f of Object.values(inner.getFields())) {
        properties[f.name] = described(inputSchema(f.type, true), f.description);
      }
      const object: Schema = { type: 'object', properties };
      if (!inner.getFields().id) return object;
      return { oneOf: [{ type: 'integer', description: 'Id of an existing record.' }, object] };
    }
    if (isScalarType(inner)) return scalarSchema(inner.name);
    return {};
  })();
  return clearable && !isNonNullType(type) ? nullable(base) : base;
}

/**
 * `schema` that also takes null, spelled as OpenAPI 3.0 reads `nullable`: only beside a `type`.
 * An untyped schema (a JSON value) takes null already; of `oneOf` alternatives, the last typed
 * one takes it, so that null still matches exactly one.
 */
function nullable(schema: Schema): Schema {
  if ('type' in schema) return { ...schema, nullable: true };
  const alternatives = schema.oneOf as Schema[] | undefined;
  if (!alternatives) return schema;
  const last = alternatives.findLastIndex((alternative) => 'type' in alternative);
  return {
    ...schema,
    oneOf: alternatives.map((alternative, i) =>
      i === last ? { ...alternative, nullable: true } : alternative,
    ),
  };
}
