/**
 * Checks a JSON value against a schema of an OpenAPI 3.0 document, strictly: besides types,
 * `required`, `enum`, `nullable` (read beside `type`, as 3.0 does), `oneOf`/`allOf`, `items`,
 * `maxItems` and `additionalProperties`, an object may carry only the properties its schema
 * declares. So a response that gains, loses or retypes a key no longer matches `GET /doc`,
 * whichever side drifted. Returns readable problems, `[]` when the value conforms.
 */

type Schema = Record<string, any>;

export function checkAgainst(doc: Schema, schema: Schema, value: unknown, at = '$'): string[] {
  if (schema.$ref) return checkAgainst(doc, resolve(doc, schema.$ref), value, at);
  if (value === null) {
    if (schema.nullable) return [];
    // OpenAPI 3.0: a typed schema takes null only with `nullable`; an untyped one leaves it to
    // its `enum` and alternatives.
    if (schema.type !== undefined) return [`${at}: null is not allowed`];
  }
  const problems: string[] = [];
  if (schema.allOf) {
    for (const part of schema.allOf) problems.push(...checkAgainst(doc, part, value, at));
  }
  if (schema.oneOf) {
    const fits = schema.oneOf.filter((s: Schema) => checkAgainst(doc, s, value, at).length === 0);
    if (fits.length !== 1) {
      problems.push(`${at}: matches ${fits.length} of the oneOf alternatives, not exactly 1`);
    }
  }
  if (schema.enum && !schema.enum.includes(value)) {
    problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (schema.type && !hasType(value, schema.type)) {
    return [...problems, `${at}: expected ${schema.type}, got ${JSON.stringify(value)}`];
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      problems.push(`${at}: more than ${schema.maxItems} items`);
    }
    if (schema.items) {
      value.forEach((item, i) =>
        problems.push(...checkAgainst(doc, schema.items, item, `${at}[${i}]`)),
      );
    }
  } else if (
    typeof value === 'object' &&
    value !== null &&
    (schema.properties || schema.additionalProperties)
  ) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!(key in object)) problems.push(`${at}: missing required key ${key}`);
    }
    for (const [key, item] of Object.entries(object)) {
      const property = schema.properties?.[key] ?? schema.additionalProperties;
      if (property === undefined || property === false) {
        problems.push(`${at}: undocumented key ${key}`);
      } else if (property !== true) {
        problems.push(...checkAgainst(doc, property, item, `${at}.${key}`));
      }
    }
  }
  return problems;
}

function resolve(doc: Schema, ref: string): Schema {
  const found = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<any>((node, key) => node?.[key], doc);
  if (!found) throw new Error(`unresolvable $ref ${ref}`);
  return found;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
    case 'boolean':
      return typeof value === type;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

/** The schema of an operation's response for a status, from the document. */
export function responseSchemaOf(
  doc: Schema,
  path: string,
  method: string,
  status: number,
): Schema {
  const response = doc.paths?.[path]?.[method]?.responses?.[String(status)];
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`GET /doc documents no ${status} for ${method} ${path}`);
  return schema;
}
