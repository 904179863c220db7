import { describeEachDb } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { expectGraphqlAgrees } from '../support/rest/rest-twin';

/** CORS_ORIGINS, NAMESPACE_ALIASES and MAX_BODY_BYTES (docs/contract.md §1, §5, §7, §10). */

const EXPOSED = 'X-TEC-Total, X-TEC-TotalPages, X-WP-Total, X-WP-TotalPages, Link, ETag, Allow';

describeEachDb(
  'REST with CORS, a namespace alias and a small body limit',
  (env) => {
    const rest = new RestClient(env);
    const admin = { as: 'administrator' as const };

    it('answers CORS headers to allowed origins, exposing the list headers', async () => {
      const response = await rest.get('/events', { headers: { origin: 'https://app.example' } });
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      const other = await rest.get('/events', { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    });

    it('answers preflight requests', async () => {
      const response = await rest.request('OPTIONS', '/events', {
        headers: {
          origin: 'https://admin.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://admin.example');
      expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
      expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
    });

    it('serves the same routes under a namespace alias', async () => {
      const created = await rest.post(
        '/venues',
        { venue: 'Alias Hall' },
        { ...admin, namespace: 'tribe/events/v1' },
      );
      expect(created.status).toBe(201);
      await expectGraphqlAgrees(env, 'venue', created.body);
      const read = await rest.get(`/venues/${created.body.id}`, { namespace: 'tribe/events/v1' });
      expect(read.body).toMatchObject({ id: created.body.id, venue: 'Alias Hall' });
      const index = await rest.get('', { namespace: 'tribe/events/v1' });
      expect(index.body.namespace).toBe('tribe/events/v1');
      expect(Object.keys(index.body.routes)).toContain('/tribe/events/v1/events/(?P<id>\\d+)');
      expectError(
        await rest.get('/nothing', { namespace: 'tribe/events/v1' }),
        404,
        'rest_no_route',
      );
    });

    it('answers 413 rest_request_too_large above MAX_BODY_BYTES', async () => {
      const big = await rest.post('/venues', { venue: 'x'.repeat(1100) }, admin);
      expectError(big, 413, 'rest_request_too_large');
      const form = await rest.request('POST', '/venues', {
        ...admin,
        form: `venue=${'y'.repeat(1100)}`,
      });
      expectError(form, 413, 'rest_request_too_large');
      expect((await rest.post('/venues', { venue: 'Small' }, admin)).status).toBe(201);
    });
  },
  {
    CORS_ORIGINS: 'https://app.example, https://admin.example',
    NAMESPACE_ALIASES: 'tribe/events/v1',
    // Every request body, GraphQL included (the twin reads above are ~300 bytes).
    MAX_BODY_BYTES: '1024',
  },
);

describeEachDb(
  'REST with CORS open to any origin',
  (env) => {
    it('reflects any origin without allowing cookie credentials', async () => {
      const response = await new RestClient(env).get('/tags', {
        headers: { origin: 'https://anywhere.example' },
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('https://anywhere.example');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED);
    });
  },
  { CORS_ORIGINS: '*' },
);

describeEachDb('REST without CORS_ORIGINS', (env) => {
  it('sends no CORS headers', async () => {
    const response = await new RestClient(env).get('/events', {
      headers: { origin: 'https://app.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-expose-headers')).toBeNull();
  });
});
