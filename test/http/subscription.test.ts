import { describeEachDb } from '../support/harness';

/**
 * The schema has no subscriptions yet: a `subscription` operation is refused while validating,
 * as a GraphQL error with HTTP 400 for every client (never 200 with INTERNAL_SERVER_ERROR),
 * over POST and GET, whatever the Accept header.
 */

const DOCUMENTS = [
  'subscription { events { total } }',
  'subscription Watch { __typename }',
  'query A { __typename } subscription B { events { total } }',
];

describeEachDb('subscription operations', (env) => {
  it.each(DOCUMENTS)('answers %s with a 400 GraphQL error', async (query) => {
    const operationName = /subscription (\w+)/.exec(query)?.[1];
    const accepts = [
      undefined,
      'application/json',
      'application/graphql-response+json',
      'text/event-stream',
    ];
    for (const accept of accepts) {
      for (const method of ['POST', 'GET'] as const) {
        const headers: Record<string, string> = accept ? { accept } : {};
        const init: RequestInit =
          method === 'POST'
            ? {
                method,
                headers: { ...headers, 'content-type': 'application/json' },
                body: JSON.stringify({ query, operationName }),
              }
            : { headers };
        const search = new URLSearchParams({ query, ...(operationName ? { operationName } : {}) });
        const url =
          method === 'GET' ? `http://localhost/graphql?${search}` : 'http://localhost/graphql';
        const response = await env.app.yoga.fetch(url, init);
        expect({ accept, method, status: response.status }).toEqual({
          accept,
          method,
          status: 400,
        });
        const text = await response.text();
        // Event streams carry the result as `data:` lines.
        const body = JSON.parse(
          accept === 'text/event-stream'
            ? text.replace(/^[\s\S]*?data: /, '').split('\n')[0]!
            : text,
        );
        expect(body.data).toBeUndefined();
        expect(body.errors).toEqual([
          expect.objectContaining({
            message:
              'The schema has no subscription type: subscription operations are not supported.',
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          }),
        ]);
      }
    }
  });

  it('leaves queries alone', async () => {
    const result = await env.gql('query A { __typename }');
    expect(result).toEqual({ data: { __typename: 'Query' } });
  });
});
