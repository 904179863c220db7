import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config/config';
import { sha256 } from '../../../src/graphql/persisted';
import { describeEachDb } from '../../support/harness';
import { RestClient } from '../../support/rest/rest-client';

/**
 * The allowlist mode (GRAPHQL_PERSISTED_OPERATIONS): /graphql runs the listed operations by hash
 * and refuses documents sent as text; the REST routes and the SOFA view keep working.
 */

const LISTED = '{ events(per_page: 1) { total } }';
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'persisted-')), 'operations.json');
fs.writeFileSync(file, JSON.stringify({ [sha256(LISTED)]: LISTED }));

it('is off by default', () => {
  expect(loadConfig({}).graphqlPersistedOperations).toBe('');
  expect(loadConfig({ GRAPHQL_PERSISTED_OPERATIONS: file }).graphqlPersistedOperations).toBe(file);
});

describeEachDb(
  'persisted operations',
  (env) => {
    async function post(body: unknown): Promise<{ status: number; json: any }> {
      const response = await env.app.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    }

    it('runs a listed operation named by documentId or by Apollo’s extension', async () => {
      const byId = await post({ documentId: `sha256:${sha256(LISTED)}` });
      expect(byId.json).toEqual({ data: { events: { total: 0 } } });
      const apollo = await post({
        extensions: { persistedQuery: { version: 1, sha256Hash: sha256(LISTED) } },
      });
      expect(apollo.json).toEqual({ data: { events: { total: 0 } } });
      const get = await env.app.yoga.fetch(
        `http://localhost/graphql?documentId=sha256:${sha256(LISTED)}`,
        { headers: { accept: 'application/json' } },
      );
      expect(await get.json()).toEqual({ data: { events: { total: 0 } } });
    });

    it('refuses documents sent as text and unknown hashes', async () => {
      const text = await post({ query: LISTED });
      expect(text.json.data).toBeUndefined();
      expect(text.json.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
      const unknown = await post({ documentId: sha256('{ viewer { id } }') });
      expect(unknown.json.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    });

    it('keeps the REST routes and the SOFA view working', async () => {
      const rest = new RestClient(env);
      const listed = await rest.request('GET', '/events');
      expect(listed.status).toBe(200);
      expect(listed.body.total).toBe(0);
      expect((await rest.request('GET', '/events/99999')).status).toBe(404);
      const sofa = await env.app.yoga.fetch('http://localhost/wp-json/calendar/rest/categories');
      expect(sofa.status).toBe(200);
    });
  },
  { GRAPHQL_PERSISTED_OPERATIONS: file },
);
