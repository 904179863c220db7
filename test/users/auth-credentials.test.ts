import { createHash } from 'node:crypto';
import { createApiToken, createAppPassword } from '../../src/users/credentials';
import { findCredentialWithUser, revokeCredential } from '../../src/users/store/credentials';
import { bootstrapAdmin } from '../../src/users/users';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * Credentials on the real request path (docs/contract.md §9): Bearer API tokens and HTTP Basic
 * application passwords; anything sent that does not check out is 401 UNAUTHENTICATED — even on
 * reads, never anonymous. Secrets are stored only as SHA-256 hashes.
 */

const VIEWER = '{ viewer { id login role } }';
const CREATE_EVENT = `mutation($input: EventInput!) { create_event(input: $input) { id author } }`;
const basic = (login: string, password: string): string =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

async function viewerWith(env: TestEnv, authorization: string) {
  return env.gql(VIEWER, {}, { authorization });
}

function expectUnauthenticated(result: { data?: unknown; errors?: { extensions?: unknown }[] }) {
  expect(result.data ?? null).toBeNull();
  expect(result.errors).toHaveLength(1);
  expect(result.errors?.[0]?.extensions).toEqual({
    code: 'UNAUTHENTICATED',
    rest_code: 'rest_forbidden',
  });
}

describeEachDb('credentials', (env) => {
  it('authenticates a Bearer API token, and writes as its user', async () => {
    const editor = await env.createUser('editor', 'bearer-editor');
    expect(editor.token).toMatch(/^cal_\d+_[A-Za-z0-9_-]{43}$/);
    const seen = await viewerWith(env, `Bearer ${editor.token}`);
    expect(seen.data?.viewer).toEqual({ id: editor.id, login: 'bearer-editor', role: 'editor' });
    // The scheme is case-insensitive.
    expect((await viewerWith(env, `bearer ${editor.token}`)).data?.viewer.id).toBe(editor.id);
    const input = {
      title: 'By bearer',
      start_date: '2027-03-01 10:00',
      end_date: '2027-03-01 11:00',
    };
    const made = await env.gql(
      CREATE_EVENT,
      { input },
      { authorization: `Bearer ${editor.token}` },
    );
    expect(made.data?.create_event.author).toBe(String(editor.id));
    const row = await env.db('api_tokens').where({ user_id: editor.id }).first();
    expect(row.last_used_at).toBe('2026-11-21 08:00:00');
  });

  it('authenticates HTTP Basic with an application password, spaces optional', async () => {
    const author = await env.createUser('author', 'basic-author');
    const made = await createAppPassword(env.db, author.id, 'laptop', env.now);
    expect(made.secret).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    for (const password of [made.secret, made.secret.replace(/ /g, '')]) {
      const seen = await viewerWith(env, basic('basic-author', password));
      expect(seen.data?.viewer).toEqual({ id: author.id, login: 'basic-author', role: 'author' });
    }
    // Every live password of the login is tried.
    const second = await createAppPassword(env.db, author.id, 'phone', env.now);
    expect((await viewerWith(env, basic('basic-author', second.secret))).data?.viewer.id).toBe(
      author.id,
    );
    const input = {
      title: 'By basic',
      start_date: '2027-03-01 10:00',
      end_date: '2027-03-01 11:00',
    };
    const write = await env.gql(
      CREATE_EVENT,
      { input },
      { authorization: basic('basic-author', made.secret) },
    );
    expect(write.data?.create_event.author).toBe(String(author.id));
  });

  it('rejects wrong, revoked and malformed credentials with 401, never as anonymous', async () => {
    const user = await env.createUser('contributor', 'rejected-user');
    const app = await createAppPassword(env.db, user.id, 'x', env.now);
    const other = await env.createUser('editor', 'someone-else');
    const [, id] = /^cal_(\d+)_/.exec(user.token) ?? [];
    const cases = [
      `Bearer ${user.token}x`, // wrong secret
      `Bearer ${user.token.slice(0, -1)}${user.token.endsWith('A') ? 'B' : 'A'}`,
      `Bearer cal_${id}_${other.token.split('_').slice(2).join('_')}`, // another token's secret
      'Bearer cal_999999_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', // unknown id
      'Bearer not-a-token',
      'Bearer ',
      'Bearer',
      'Token abc',
      `Bearer ${user.token} extra`,
      basic('rejected-user', 'wrong password'),
      basic('rejected-user', `${app.secret}x`),
      basic('no-such-login', app.secret),
      basic('someone-else', app.secret), // another user's password
      'Basic !!!not-base64!!!',
      `Basic ${Buffer.from('no-colon').toString('base64')}`,
      `Basic ${Buffer.from(':password').toString('base64')}`,
      'Basic',
    ];
    const outcomes: Record<string, unknown> = {};
    for (const authorization of cases) {
      const result = await viewerWith(env, authorization);
      outcomes[authorization] = result.errors?.[0]?.extensions ?? result.data;
    }
    const expected = { code: 'UNAUTHENTICATED', rest_code: 'rest_forbidden' };
    expect(outcomes).toEqual(Object.fromEntries(cases.map((c) => [c, expected])));
    // Revoked: the token and the password stop working at once.
    expect((await viewerWith(env, `Bearer ${user.token}`)).data?.viewer.id).toBe(user.id);
    await env
      .db('api_tokens')
      .where({ id: Number(id) })
      .update({ revoked_at: '2026-11-21 08:00:00' });
    expectUnauthenticated(await viewerWith(env, `Bearer ${user.token}`));
    await env
      .db('app_passwords')
      .where({ id: app.id })
      .update({ revoked_at: '2026-11-21 08:00:00' });
    expectUnauthenticated(await viewerWith(env, basic('rejected-user', app.secret)));
    // A write with a bad credential is 401 too, and changes nothing.
    const before = await env.snapshot();
    const input = { title: 'Nope', start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00' };
    expectUnauthenticated(
      await env.gql(CREATE_EVENT, { input }, { authorization: `Bearer ${user.token}` }),
    );
    expect(await env.snapshot()).toBe(before);
  });

  it('answers an empty Authorization header and no header as anonymous', async () => {
    expect((await env.gql(VIEWER, {}, { authorization: '' })).data?.viewer).toBeNull();
    expect((await env.gql(VIEWER, {}, { as: 'anonymous' })).data?.viewer).toBeNull();
  });

  it('answers UNAUTHENTICATED as a GraphQL error with HTTP 200', async () => {
    const response = await env.app.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer wrong-token-value' },
      body: JSON.stringify({ query: VIEWER }),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expectUnauthenticated(body);
    expect(JSON.stringify(body)).not.toContain('wrong-token-value');
  });

  it('stores only SHA-256 hashes: no secret in clear text anywhere in the database', async () => {
    const user = await env.createUser('author', 'stored-form');
    const app = await createAppPassword(env.db, user.id, 'stored', env.now);
    const chosen = 'my-own-chosen-token-value-1234';
    await createApiToken(env.db, user.id, 'chosen', env.now, chosen);
    const tokenRow = await env
      .db('api_tokens')
      .where({ id: Number(/^cal_(\d+)_/.exec(user.token)?.[1]) })
      .first();
    const secret = user.token.split('_').slice(2).join('_');
    expect(tokenRow.secret_hash).toBe(sha256(secret));
    const appRow = await env.db('app_passwords').where({ id: app.id }).first();
    expect(appRow.secret_hash).toBe(sha256(app.secret.replace(/ /g, '')));
    const everything: string[] = [];
    for (const table of ['users', 'api_tokens', 'app_passwords']) {
      everything.push(JSON.stringify(await env.db(table).select('*')));
    }
    const dump = everything.join('\n');
    for (const clear of [user.token, secret, app.secret, app.secret.replace(/ /g, ''), chosen]) {
      expect(dump).not.toContain(clear);
    }
    for (const row of await env.db('api_tokens').select('secret_hash')) {
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    // The chosen token works as a whole, and only as a whole.
    expect((await viewerWith(env, `Bearer ${chosen}`)).data?.viewer.id).toBe(user.id);
    expectUnauthenticated(await viewerWith(env, `Bearer ${secret}`));
    await expect(createApiToken(env.db, user.id, 'again', env.now, chosen)).rejects.toThrow(
      'already in use',
    );
    await expect(createApiToken(env.db, user.id, 'short', env.now, 'too-short')).rejects.toThrow(
      'at least 20',
    );
  });

  it('reads a credential with its user in one statement, and refuses it once revoked', async () => {
    const user = await env.createUser('editor', 'one-read');
    const chosen = `chosen-one-read-token-${env.dialect}-0123`;
    const minted = await createApiToken(env.db, user.id, 'chosen', env.now, chosen);
    for (const [token, id] of [
      [user.token, Number(/^cal_(\d+)_/.exec(user.token)?.[1])],
      [chosen, minted.id],
    ] as const) {
      // The first use is recorded (an UPDATE at most once a minute): not counted here.
      expect((await viewerWith(env, `Bearer ${token}`)).data?.viewer.id).toBe(user.id);
      let seen: Awaited<ReturnType<typeof viewerWith>> | undefined;
      const statements = await env.countQueries(async () => {
        seen = await viewerWith(env, `Bearer ${token}`);
      });
      expect(seen?.data?.viewer).toEqual({ id: user.id, login: user.login, role: 'editor' });
      expect(statements).toBe(1);
      // The credential keeps its own columns beside its user's.
      const found = await findCredentialWithUser(env.db, 'api_tokens', id);
      expect(found?.credential).toMatchObject({ id, user_id: user.id, revoked_at: null });
      expect(found?.user).toMatchObject({ id: user.id, login: user.login, role: 'editor' });
      await revokeCredential(env.db, 'api_tokens', id, '2026-01-01 00:00:00');
      expectUnauthenticated(await viewerWith(env, `Bearer ${token}`));
    }
  });

  it('created the first administrator with a generated token, returned once', async () => {
    const { bootstrap } = env.app;
    if (!bootstrap.created) throw new Error('the test database should have been bootstrapped');
    expect(bootstrap.login).toBe('admin');
    expect(bootstrap.token).toMatch(/^cal_\d+_/);
    const seen = await viewerWith(env, `Bearer ${bootstrap.token}`);
    expect(seen.data?.viewer).toEqual({
      id: bootstrap.userId,
      login: 'admin',
      role: 'administrator',
    });
    expect(JSON.stringify(await env.db('api_tokens').select('*'))).not.toContain(bootstrap.token);
  });
});

describeEachDb(
  'ADMIN_TOKEN on first start',
  (env) => {
    it('becomes the bearer token of the first administrator, stored hashed', async () => {
      expect(env.app.bootstrap).toEqual({
        created: true,
        login: 'admin',
        userId: expect.any(Number),
        token: null,
      });
      const seen = await env.gql(
        VIEWER,
        {},
        { authorization: 'Bearer automation-token-0123456789' },
      );
      expect(seen.data?.viewer).toMatchObject({ login: 'admin', role: 'administrator' });
      const rows = JSON.stringify(await env.db('api_tokens').select('*'));
      expect(rows).not.toContain('automation-token-0123456789');
      expect(await env.db('users')).toHaveLength(1);
    });

    it('is not used again once users exist, and start-up notices when nobody can write', async () => {
      const token = 'automation-token-0123456789';
      expect(await bootstrapAdmin(env.db, env.now, token)).toEqual({
        created: false,
        adminTokenIgnored: false,
        noCredentials: false,
      });
      await env.db('api_tokens').update({ revoked_at: '2026-11-21 08:00:00' });
      expect(await bootstrapAdmin(env.db, env.now, token)).toEqual({
        created: false,
        adminTokenIgnored: true,
        noCredentials: true,
      });
      expect(await env.db('users')).toHaveLength(1);
    });
  },
  { ADMIN_TOKEN: 'automation-token-0123456789' },
);
