import type { YogaServerInstance } from 'graphql-yoga';
import type { AppContext } from '../context';

/**
 * A page's AppContext, made by Yoga's own context factory as for any API request: the same
 * authentication (a bearer token or application password sees what it sees through the API,
 * no credentials is anonymous), the same password-guess throttle and the same runtime budget
 * (statement cap, deadline) — the page shows exactly what the API would show its caller.
 */

type Enveloped = ReturnType<
  YogaServerInstance<Record<string, unknown>, AppContext>['getEnveloped']
>;
export type GetEnveloped = (context: Record<string, unknown>) => Enveloped;

export async function pageContext(
  getEnveloped: GetEnveloped | undefined,
  request: Request,
  serverContext: Record<string, unknown>,
): Promise<AppContext> {
  if (!getEnveloped) throw new Error('web plugin used before Yoga initialised it');
  const enveloped = getEnveloped({
    ...serverContext,
    request,
    params: { query: 'query Page { __typename }', variables: {} },
  });
  return (await enveloped.contextFactory()) as unknown as AppContext;
}
