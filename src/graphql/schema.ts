import fs from 'node:fs';
import path from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from '../../resolvers';
import { schemaDir } from '../config';

/** The SDL files, in a stable order. */
function loadTypeDefs(): string[] {
  return fs
    .readdirSync(schemaDir)
    .filter((f) => f.endsWith('.graphql'))
    .sort((a, b) => (a === 'base.graphql' ? -1 : b === 'base.graphql' ? 1 : a.localeCompare(b)))
    .map((f) => fs.readFileSync(path.join(schemaDir, f), 'utf8'));
}

export function buildSchema(): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: loadTypeDefs(),
    resolvers,
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
