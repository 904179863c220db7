import { createLogger } from '../../src/http/logger';
import { createApp, type App } from '../../src/http/server';
import { insertEvent } from '../support/event-fixtures';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * Passwords and tokens never reach the logs (docs/security.md "Logs"), at any level, trace
 * included: REST query strings (`password=`, `token=` …), GraphQL arguments written inline and
 * variables (by name or by the secret argument they feed), GET and POST, and Authorization
 * headers — while the rest of the line stays useful.
 */

const NS = 'http://localhost/wp-json/calendar/events/v1';
const q = encodeURIComponent;

async function capturing(env: TestEnv): Promise<{ app: App; text: () => string }> {
  const written: string[] = [];
  const logger = createLogger('trace', { write: (line: string) => written.push(line) });
  const app = await createApp({ config: env.config, db: env.db, now: () => env.now, logger });
  return { app, text: () => written.join('') };
}

describeEachDb('log redaction', (env) => {
  let id: number;
  beforeAll(async () => {
    id = await insertEvent(env, {
      title: 'Logged',
      start: '2027-01-05 10:00:00',
      password: 'pw-event-1',
    });
  });

  it('redacts secrets of REST requests, GraphQL GET and POST, and Authorization headers', async () => {
    const { app, text } = await capturing(env);
    const admin = await env.user('administrator');
    const secrets: string[] = [];
    const secret = (name: string) => {
      const value = `S3CR3T-${name}-${secrets.length}`;
      secrets.push(value);
      return value;
    };
    // REST: query-string secrets, single read with a password, a Bearer token.
    await app.yoga.fetch(`${NS}/events/${id}?password=${secret('rest')}`);
    await app.yoga.fetch(`${NS}/events?token=${secret('rest-token')}&search=x`, {
      headers: { authorization: `Bearer ${secret('bearer')}` },
    });
    await app.yoga.fetch(`${NS}/events/${id}?PassWord=${secret('case')}`);
    // GraphQL GET: inline arguments, variables by name and by the argument they feed.
    const inline = `{ event(id: ${id}, password: "${secret('inline')}") { id } }`;
    await app.yoga.fetch(`http://localhost/graphql?query=${q(inline)}`);
    const bound = `query($p: String, $id: Int!) { event(id: $id, password: $p) { id } }`;
    await app.yoga.fetch(
      `http://localhost/graphql?query=${q(bound)}&variables=${q(JSON.stringify({ p: secret('bound'), id }))}`,
    );
    const named = `query($password: String) { event(id: ${id}, password: $password) { id } }`;
    await app.yoga.fetch(
      `http://localhost/graphql?query=${q(named)}&variables=${q(JSON.stringify({ password: secret('named') }))}`,
    );
    await app.yoga.fetch(
      `http://localhost/graphql?variables=${q(`{"token": "${secret('alone')}"`)}`,
    );
    // GraphQL POST, with a token in the header, inline and bound secrets, and a syntax error.
    for (const query of [
      inline.replace('inline', 'x'),
      bound,
      `{ event(id: 1, password: "${secret('bad')}" }`,
    ]) {
      await app.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret('post')}` },
        body: JSON.stringify({ query, variables: { p: secret('post-var'), id } }),
      });
    }
    await app.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({
        query: 'mutation($input: EventInput!) { create_event(input: $input) { id } }',
        variables: {
          input: {
            title: 'With password',
            start_date: '2027-01-06 10:00:00',
            end_date: '2027-01-06 11:00:00',
            password: secret('write'),
          },
        },
      }),
    });
    const logged = text();
    expect(logged).not.toBe('');
    for (const value of [...secrets, admin.token]) {
      expect({ value, logged: logged.includes(value) }).toEqual({ value, logged: false });
    }
    expect(logged).not.toMatch(/authorization"?\s*:\s*"(?!\[redacted\])/i);
    // The lines keep what is useful: the route, the id, where the secret was.
    expect(logged).toContain(`/wp-json/calendar/events/v1/events/${id}?password=%5Bredacted%5D`);
    expect(logged).toContain(q(`event(id: ${id}, password: "[redacted]")`));
    expect(logged).toContain(q('"p":"[redacted]"'));
  });
});
