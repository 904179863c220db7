import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli';
import { loadConfig } from '../../src/config/config';
import { createDb, type Db } from '../../src/db/knex';
import { createApp } from '../../src/http/server';

/**
 * The user/credential CLI and the first-start bootstrap, run as real processes against a
 * temporary SQLite database: outputs, exit codes (0 ok, 2 usage, 3 unknown login/id), secrets
 * printed once and stored only hashed.
 */

const root = path.join(__dirname, '..', '..');
const tsx = require.resolve('tsx/cli');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

describe('calendar CLI and first start', () => {
  let dir: string;
  let databaseUrl: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-cli-'));
    databaseUrl = `sqlite:${path.join(dir, 'cli.sqlite')}`;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs a command in-process (the same `runCli` the script runs), capturing its output. */
  async function cli(...args: string[]): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const out = jest.spyOn(console, 'log').mockImplementation((line: string) => {
      stdout += `${line}\n`;
    });
    const err = jest.spyOn(console, 'error').mockImplementation((line: string) => {
      stderr += `${line}\n`;
    });
    try {
      const status = await runCli(args, { DATABASE_URL: databaseUrl });
      return { status, stdout, stderr };
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }

  /**
   * Runs a command as `npm run calendar` does: a process of its own (the script runs the compiled
   * dist/src/cli/index.js; here the source runs through tsx, so no build is needed).
   */
  function spawnCli(...args: string[]): Run {
    const result = spawnSync(process.execPath, [tsx, 'src/cli/index.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /** Who a credential authenticates as, through an app on the CLI's database. */
  async function whoIs(authorization: string): Promise<unknown> {
    const db: Db = createDb({ databaseUrl });
    try {
      const app = await createApp({ config: loadConfig({ DATABASE_URL: databaseUrl }), db });
      const response = await app.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ query: '{ viewer { login role } }' }),
      });
      const body = (await response.json()) as { data?: any; errors?: any[] };
      return body.errors ? body.errors[0].extensions.code : body.data.viewer;
    } finally {
      await db.destroy();
    }
  }

  const hashesOnly = async (secret: string): Promise<void> => {
    const db = createDb({ databaseUrl });
    try {
      for (const table of ['users', 'api_tokens', 'app_passwords']) {
        expect(JSON.stringify(await db(table).select('*'))).not.toContain(secret);
      }
    } finally {
      await db.destroy();
    }
  };

  it('user:add creates the user and prints its token once; the token works', async () => {
    const run = await cli('user:add', '--login', 'alice', '--role', 'editor');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Created user "alice" \(id \d+, role editor\)\.$/);
    const token = lines.at(-1)!;
    expect(token).toMatch(/^cal_\d+_[A-Za-z0-9_-]{43}$/);
    expect(await whoIs(`Bearer ${token}`)).toEqual({ login: 'alice', role: 'editor' });
    await hashesOnly(token);
    // A database that already has users gets no bootstrap administrator.
    expect((await cli('user:list')).stdout).not.toMatch(/\badmin\b/);
  });

  it('user:add --token uses the given token, and --json answers machine-readable', async () => {
    const chosen = 'ci-automation-token-0123456789';
    const run = await cli(
      'user:add',
      '--login',
      'robot',
      '--role',
      'author',
      '--token',
      chosen,
      '--json',
    );
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ user: { login: 'robot', role: 'author' }, token: { token: null } });
    expect(run.stdout).not.toContain(chosen);
    expect(await whoIs(`Bearer ${chosen}`)).toEqual({ login: 'robot', role: 'author' });
    await hashesOnly(chosen);
  });

  it('reports usage errors with exit code 2 and unknown logins or ids with 3', async () => {
    const cases: [string[], number, RegExp][] = [
      [
        ['user:add', '--login', 'bob', '--role', 'boss'],
        2,
        /--role must be one of administrator, editor/,
      ],
      [['user:add', '--login', 'alice', '--role', 'author'], 2, /--login "alice" is already taken/],
      [['user:add', '--login', 'bad:login', '--role', 'author'], 2, /--login must be/],
      [['user:add', '--role', 'author'], 2, /--login is required/],
      [['user:add', '--login', 'x', '--role', 'author', '--token', 'short'], 2, /at least 20/],
      [['user:add', '--login', 'y', '--role', 'author', '--bogus'], 2, /Unknown option '--bogus'/],
      [['no:such-command'], 2, /Unknown command "no:such-command"/],
      [[], 2, /Usage: npm run calendar/],
      [['token:add', '--login', 'nobody'], 3, /No user with login "nobody"/],
      [['app-password:add', '--login', 'nobody'], 3, /No user with login "nobody"/],
      [['token:revoke', '--id', '999999'], 3, /No API token with id 999999/],
      [['token:revoke', '--id', 'abc'], 2, /--id must be a positive id/],
    ];
    for (const [args, status, message] of cases) {
      const run = await cli(...args);
      expect({ args, status: run.status, stdout: run.stdout }).toEqual({
        args,
        status,
        stdout: '',
      });
      expect(run.stderr).toMatch(message);
    }
    // The failed user:add calls created nobody.
    const list = JSON.parse((await cli('user:list', '--json')).stdout) as { login: string }[];
    expect(list.map((u) => u.login)).toEqual(['alice', 'robot']);
    expect((await cli('help')).status).toBe(0);
  });

  it('runs as its own process, through `npm run calendar`, with the same exit codes', async () => {
    const made = spawnCli('user:add', '--login', 'carol', '--role', 'subscriber');
    expect(made.status).toBe(0);
    const token = made.stdout.trim().split('\n').at(-1)!;
    expect(await whoIs(`Bearer ${token}`)).toEqual({ login: 'carol', role: 'subscriber' });
    expect(spawnCli('user:add', '--login', 'dave', '--role', 'owner')).toMatchObject({
      status: 2,
      stdout: '',
    });
    const missing = spawnCli('token:add', '--login', 'nobody');
    expect(missing).toMatchObject({ status: 3, stdout: '' });
    expect(missing.stderr).toContain('token:add: No user with login "nobody"');
    const npm = spawnSync('npm', ['run', '--silent', 'calendar', '--', 'user:list', '--json'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(npm.status).toBe(0);
    const logins = (JSON.parse(npm.stdout) as { login: string }[]).map((u) => u.login);
    expect(logins).toContain('carol');
  });

  it('token:add, token:list and token:revoke: a revoked token is rejected with 401', async () => {
    const add = await cli('token:add', '--login', 'alice', '--name', 'deploy');
    expect(add.status).toBe(0);
    const token = add.stdout.trim().split('\n').at(-1)!;
    const id = /^cal_(\d+)_/.exec(token)![1]!;
    expect(await whoIs(`Bearer ${token}`)).toEqual({ login: 'alice', role: 'editor' });
    const list = await cli('token:list', '--login', 'alice');
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+alice\\s+deploy\\s`, 'm'));
    expect(list.stdout).not.toContain(token.replace(/^cal_\d+_/, '').slice(0, 10));
    const revoke = await cli('token:revoke', '--id', id);
    expect(revoke).toMatchObject({ status: 0, stdout: `Revoked API token ${id}.\n` });
    expect(await whoIs(`Bearer ${token}`)).toBe('UNAUTHENTICATED');
    expect((await cli('token:revoke', '--id', id)).stdout).toContain('already revoked');
    const listed = JSON.parse((await cli('token:list', '--json')).stdout) as Record<
      string,
      unknown
    >[];
    expect(listed.find((t) => String(t.id) === id)).toMatchObject({
      revoked_at: expect.any(String),
    });
  });

  it('app-password:add prints a password for HTTP Basic, once', async () => {
    const run = await cli('app-password:add', '--login', 'robot', '--name', 'laptop');
    expect(run.status).toBe(0);
    const password = run.stdout.split('\n')[1]!;
    expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const basic = `Basic ${Buffer.from(`robot:${password}`).toString('base64')}`;
    expect(await whoIs(basic)).toEqual({ login: 'robot', role: 'author' });
    await hashesOnly(password.replace(/ /g, ''));
    const list = await cli('app-password:list');
    expect(list.stdout).toMatch(/robot\s+laptop/);
    expect(list.stdout).not.toContain(password);
    const id = /^(\d+)\s+robot\s+laptop/m.exec(list.stdout)![1]!;
    expect((await cli('app-password:revoke', '--id', id)).status).toBe(0);
    expect(await whoIs(basic)).toBe('UNAUTHENTICATED');
  });
});

describe('first start of the server', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-boot-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Starts `src/main.ts`, waits until it listens, stops it, and returns its output. */
  function start(env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [tsx, 'src/main.ts'], {
        cwd: root,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
      });
      let stdout = '';
      let stderr = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`server did not start: ${stdout}${stderr}`));
      }, 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('listening on')) child.kill('SIGTERM');
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', () => {
        clearTimeout(timer);
        resolve({ stdout, stderr });
      });
    });
  }

  it('prints a generated administrator token once, in a marked block, and never again', async () => {
    const databaseUrl = `sqlite:${path.join(dir, 'boot.sqlite')}`;
    const first = await start({ DATABASE_URL: databaseUrl });
    expect(first.stdout).toContain('FIRST START: created the administrator "admin"');
    const tokens = first.stdout.match(/cal_\d+_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(tokens).toHaveLength(1);
    const db = createDb({ databaseUrl });
    try {
      const rows = JSON.stringify(await db('api_tokens').select('*'));
      expect(rows).not.toContain(tokens[0]);
      expect(await db('users')).toHaveLength(1);
    } finally {
      await db.destroy();
    }
    const second = await start({ DATABASE_URL: databaseUrl });
    expect(second.stdout).not.toContain('FIRST START');
    expect(second.stdout).not.toMatch(/cal_\d+_/);
  });

  it('with ADMIN_TOKEN, uses it without printing it; later it is ignored with a warning', async () => {
    const databaseUrl = `sqlite:${path.join(dir, 'boot-env.sqlite')}`;
    const ADMIN_TOKEN = 'bootstrap-from-env-0123456789';
    const first = await start({ DATABASE_URL: databaseUrl, ADMIN_TOKEN });
    expect(first.stdout).toContain('its bearer token is the value of ADMIN_TOKEN');
    expect(first.stdout + first.stderr).not.toContain(ADMIN_TOKEN);
    const other = await start({ DATABASE_URL: databaseUrl, ADMIN_TOKEN: `${ADMIN_TOKEN}-new` });
    expect(other.stderr).toContain('ADMIN_TOKEN is set but users already exist');
    expect(other.stdout + other.stderr).not.toContain(ADMIN_TOKEN);
  });

  it('refuses a short ADMIN_TOKEN with one sentence naming it, without echoing it', () => {
    const result = spawnSync(process.execPath, [tsx, 'src/main.ts'], {
      cwd: root,
      env: { ...process.env, ADMIN_TOKEN: 'short-secret', DATABASE_URL: 'sqlite::memory:' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Configuration error: ADMIN_TOKEN must be at least 20 characters without spaces, got 12 character(s).',
    );
  });
});
