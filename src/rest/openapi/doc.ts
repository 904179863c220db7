import type { GraphQLSchema } from 'graphql';
import type { Config } from '../../config';
import { namespaceUrl } from '../../lib';
import type { CompiledRoute } from '../compile';
import { openApiPaths } from './paths';
import { componentSchemas } from './schemas';
import { SECURITY_SCHEMES } from './security';

/**
 * `GET /doc` (docs/contract.md §11): the OpenAPI 3 document of a namespace, generated from the
 * compiled route table (paths, methods, parameters, request bodies, responses: `paths.ts`) and the
 * GraphQL schema (component schemas: `schemas.ts`). Nothing in it is written by hand but the
 * presenters' wire rules. Built once per namespace when the schema is set (`index.ts`), never per
 * request.
 */
export function openApiDocument(
  config: Config,
  schema: GraphQLSchema,
  routes: readonly CompiledRoute[],
  namespace: string,
): Record<string, unknown> {
  return {
    openapi: '3.0.0',
    info: {
      version: '1.0.0',
      title: 'Calendar events REST API',
      description:
        'The legacy calendar REST interface: events, venues, organizers, categories and tags. ' +
        'Reads are public; writes need an API token or an application password.',
    },
    components: {
      schemas: componentSchemas(schema),
      securitySchemes: SECURITY_SCHEMES,
    },
    servers: [{ url: `${namespaceUrl(config, namespace)}/` }],
    paths: openApiPaths(schema, routes),
  };
}
