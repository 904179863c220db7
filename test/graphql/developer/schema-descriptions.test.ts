import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
} from 'graphql';
import { buildSchema } from '../../../src/graphql/schema';

/**
 * Every type, field, argument, input field and enum value of the schema has an SDL description
 * (README "Folders": the SDL is the contract's source of truth, read in GraphiQL and by code
 * generators). Walks the executable schema, so a new file's `extend type` is checked too.
 */

it('describes every type, field, argument, input field and enum value', () => {
  const schema = buildSchema();
  const missing: string[] = [];
  const need = (what: string, description: string | null | undefined): void => {
    if (!description?.trim()) missing.push(what);
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    // The specification's own scalars are described by it.
    if (isScalarType(type) && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) {
      continue;
    }
    need(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        need(`${type.name}.${field.name}`, field.description);
        for (const arg of field.args) {
          need(`${type.name}.${field.name}(${arg.name})`, arg.description);
        }
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        need(`${type.name}.${field.name}`, field.description);
      }
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) need(`${type.name}.${value.name}`, value.description);
    } else if (isUnionType(type)) {
      need(type.name, type.description);
    }
  }
  expect(missing).toEqual([]);
});
