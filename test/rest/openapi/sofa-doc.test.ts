import { describeEachDb, type TestEnv } from '../../support/harness';
import { checkAgainst } from '../../support/openapi-check';

/**
 * What the SOFA view's `openapi.json` adds to sofa-api's document (src/rest/openapi/sofa-doc.ts)
 * is true of the view: the summaries come from the GraphQL fields, the documented 4xx answers are
 * given, in the documented error shape.
 */

const BASE = 'http://localhost/wp-json/calendar/rest';

async function get(env: TestEnv, path: string, authorization?: string) {
  const response = await env.app.yoga.fetch(`${BASE}${path}`, {
    headers: authorization ? { authorization } : {},
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describeEachDb('SOFA openapi.json', (env) => {
  let doc: any;

  beforeAll(async () => {
    doc = (await get(env, '/openapi.json')).body;
  });

  it('gives every operation a summary, its security and a 401', () => {
    const operations = Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item));
    expect(operations.length).toBeGreaterThan(10);
    for (const operation of operations) {
      expect(operation.summary).toMatch(/\S/);
      expect(operation.security).toEqual([{}, { bearerAuth: [] }, { applicationPassword: [] }]);
      expect(operation.responses).toHaveProperty('401');
    }
    expect(doc.paths['/events'].get.summary).toBe('Lists events.');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ scheme: 'bearer' });
    expect(doc.components.schemas).not.toHaveProperty('Query');
  });

  it('answers the documented 4xx in the documented shape', async () => {
    const single = doc.paths['/event/{id}'].get.responses;
    expect(Object.keys(single)).toEqual(['200', '400', '401', '403', '404']);
    expect(Object.keys(doc.paths['/viewer'].get.responses)).toEqual(['200', '401']);
    const errors = { $ref: '#/components/schemas/SofaErrors' };
    for (const [path, authorization, status] of [
      ['/event/987654', undefined, 404],
      ['/event-by-slug?slug=nope', undefined, 404],
      ['/event-by-slug', undefined, 400],
      ['/events?per_page=zero', undefined, 400],
      ['/viewer', 'Bearer not-a-token', 401],
    ] as const) {
      const answer = await get(env, path, authorization);
      expect({ path, status: answer.status }).toEqual({ path, status });
      expect(checkAgainst(doc, errors, answer.body)).toEqual([]);
    }
  });
});
