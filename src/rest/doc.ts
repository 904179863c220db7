import type { Config } from '../config';
import type { CompiledRoute } from './compile';
import { templatePath } from './routes';

/**
 * `GET /doc`: a minimal, valid OpenAPI 3 document built from the route table — every path with
 * its methods, path parameters and a success response. The full document (schemas, parameters,
 * error responses; CONTRACT §7) is generated from the same table in a later change.
 */
export function openApiDocument(
  config: Config,
  routes: readonly CompiledRoute[],
  namespace: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.row.path === '') continue;
    const path = templatePath(route.row.path);
    const parameters = route.params
      .filter((p) => p.in === 'path')
      .map((p) => ({
        name: p.name,
        in: 'path',
        required: true,
        schema: { type: p.name === 'id' ? 'integer' : 'string' },
      }));
    for (const method of route.row.methods) {
      paths[path] = {
        ...paths[path],
        [method.toLowerCase()]: {
          summary: route.row.summary,
          ...(parameters.length ? { parameters } : {}),
          responses: { [String(route.row.status)]: { description: 'Success.' } },
        },
      };
    }
  }
  return {
    openapi: '3.0.0',
    info: {
      version: '1.0.0',
      title: 'Calendar events REST API',
      description:
        'The legacy calendar REST interface: events, venues, organizers, categories and tags.',
    },
    components: { schemas: {} },
    servers: [{ url: `${config.siteUrl}${config.apiRoot}/${namespace}/` }],
    paths,
  };
}
