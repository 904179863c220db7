import { printSchema, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { etagOf, fixedFileResponse, type FixedFile } from '../http/etag';
import { requestInfo } from '../http/request-info';

/**
 * `GET /graphql/schema.graphql`: the SDL printed from the executable schema (descriptions
 * included), for code generators and schema registries, with an ETag (304 on If-None-Match).
 * Printed once per schema.
 */

export const SDL_PATH = '/graphql/schema.graphql';

export function useSchemaSdl(): Plugin {
  let printed: FixedFile | undefined;
  let schema: GraphQLSchema | undefined;
  return {
    onSchemaChange(payload) {
      schema = payload.schema;
      printed = undefined;
    },
    onRequest({ request, url, fetchAPI, endResponse }) {
      if (url.pathname !== SDL_PATH || !schema) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      requestInfo(request).route = SDL_PATH;
      if (!printed) {
        const body = Buffer.from(`${printSchema(schema)}\n`, 'utf8');
        printed = { body, etag: etagOf(body), contentType: 'text/plain; charset=utf-8' };
      }
      endResponse(fixedFileResponse(fetchAPI.Response, request, printed));
    },
  };
}
