import { execFile } from 'node:child_process';
import path from 'node:path';
import { describeEachDb, type TestEnv } from '../../support/harness';

/**
 * Both OpenAPI documents pass Redocly's linter with its `recommended` rules (issue 17, item 7),
 * as client generators and API portals read them: the contract's `GET /doc` and the SOFA view's
 * `openapi.json`, fetched from a running app.
 */

const API = 'http://localhost/wp-json';

/**
 * The one exception: the contract (docs/contract.md §11) serves `/doc` with its namespace URL
 * ending in `/` as the server, as the reference does, so `no-server-trailing-slash` is off for
 * that document only.
 */
const CONTRACT_RULES = { 'no-server-trailing-slash': 'off' } as const;

async function fetchDoc(env: TestEnv, path: string): Promise<string> {
  const response = await env.app.yoga.fetch(`${API}${path}`);
  expect(response.status).toBe(200);
  return response.text();
}

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  pointer?: string;
}

/** The errors Redocly finds in `source` (redocly-lint.mjs, in a process of its own). */
function lint(source: string, rules: Record<string, 'off'> = {}): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(__dirname, 'redocly-lint.mjs')],
      { maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`redocly-lint.mjs failed: ${stderr || err.message}`));
        const problems = JSON.parse(stdout) as Problem[];
        resolve(
          problems
            .filter((p) => p.severity === 'error')
            .map((p) => `${p.ruleId} at ${p.pointer ?? '?'}: ${p.message}`),
        );
      },
    );
    child.stdin!.end(JSON.stringify({ source, rules }));
  });
}

describeEachDb('OpenAPI documents lint clean', (env) => {
  it('GET /doc of the contract has no error (trailing-slash server aside)', async () => {
    const source = await fetchDoc(env, '/calendar/events/v1/doc');
    expect(JSON.parse(source).servers[0].url).toMatch(/\/$/);
    expect(await lint(source, CONTRACT_RULES)).toEqual([]);
    // The linter runs for real, and the exception is that one rule, nothing more.
    expect(await lint(source)).toEqual([
      expect.stringMatching(/^no-server-trailing-slash at #\/servers\/0\/url: /),
    ]);
  });

  it('the SOFA view’s openapi.json has no error', async () => {
    const source = await fetchDoc(env, '/calendar/rest/openapi.json');
    expect(await lint(source)).toEqual([]);
  });
});

describeEachDb(
  'OpenAPI documents lint clean with SOFA_MUTATIONS=1',
  (env) => {
    it('the SOFA view’s openapi.json, write routes included, has no error', async () => {
      const source = await fetchDoc(env, '/calendar/rest/openapi.json');
      const doc = JSON.parse(source);
      expect(doc.paths['/create-event'].post.security).toEqual([
        { bearerAuth: [] },
        { applicationPassword: [] },
      ]);
      expect(await lint(source)).toEqual([]);
    });
  },
  { SOFA_MUTATIONS: '1' },
);
