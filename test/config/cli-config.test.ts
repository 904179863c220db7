import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli';
import { describeEachDb } from '../support/harness';

/**
 * The CLI reads the server's configuration (issue 17 item 2): `calendar export:ics` run as a real
 * process in a working directory of its own writes the URLs of SITE_URL from the database of
 * DATABASE_URL, whether they come from the environment, from `--site-url`/`--database-url`
 * (which win over both), or from a `.env` only. A decoy database with other events catches a
 * command reading the wrong one.
 */

const root = path.join(__dirname, '..', '..');
const tsx = require.resolve('tsx/cli');
const CONFIG_VARIABLES = ['DATABASE_URL', 'SITE_URL', 'ENV_FILE', 'PORT'];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The process environment without any configuration the test did not choose. */
function bareEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

function spawnIn(cwd: string, script: string, args: string[], env: Record<string, string>): Run {
  const result = spawnSync(process.execPath, [tsx, path.join(root, script), ...args], {
    cwd,
    env: bareEnv(env),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a command in-process, its output silenced. */
async function quietCli(args: string[], env: Record<string, string>): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(console, 'log').mockImplementation((line: string) => {
    stdout += `${line}\n`;
  });
  const err = jest.spyOn(console, 'error').mockImplementation((line: string) => {
    stderr += `${line}\n`;
  });
  try {
    return { status: await runCli(args, env), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** The `URL` properties of an iCalendar export, unfolded. */
function icsUrls(text: string): string[] {
  return text
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/)
    .filter((line) => line.startsWith('URL'))
    .map((line) => line.slice(line.indexOf(':') + 1))
    .sort();
}

describeEachDb('calendar export:ics reads the server configuration', (env) => {
  let dir: string;
  let decoyUrl: string;
  let expectedSlugs: string[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-cli-config-'));
    decoyUrl = `sqlite:${path.join(dir, 'decoy.sqlite')}`;
    const seeded = await quietCli(
      ['seed:demo', '--events', '3', '--database-url', env.config.databaseUrl],
      {},
    );
    expect(seeded).toMatchObject({ status: 0 });
    const decoy = await quietCli(['seed:demo', '--events', '1', '--seed', '7'], {
      DATABASE_URL: decoyUrl,
    });
    expect(decoy).toMatchObject({ status: 0 });
    expectedSlugs = (await env.db('events').whereNot('status', 'trash').pluck('slug')) as string[];
    expect(expectedSlugs).toHaveLength(3);
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A fresh working directory, with `dotenv` as its `.env` when given. */
  function workDir(name: string, dotenv?: string): string {
    const cwd = path.join(dir, name);
    fs.mkdirSync(cwd);
    if (dotenv !== undefined) fs.writeFileSync(path.join(cwd, '.env'), dotenv);
    return cwd;
  }

  function expectExport(run: Run, site: string): void {
    expect(run.stderr).not.toMatch(/failed|error/i);
    expect(run.status).toBe(0);
    expect(icsUrls(run.stdout)).toEqual(
      expectedSlugs.map((slug) => `${site}/event/${slug}/`).sort(),
    );
  }

  it('(a) with SITE_URL and DATABASE_URL in the environment', () => {
    const run = spawnIn(workDir('a'), 'src/cli/index.ts', ['export:ics', '-'], {
      DATABASE_URL: env.config.databaseUrl,
      SITE_URL: 'https://env.example/',
    });
    expectExport(run, 'https://env.example');
  }, 60_000);

  it('(b) with --site-url and --database-url, which win over the environment and .env', () => {
    const cwd = workDir('b', `DATABASE_URL=${decoyUrl}\nSITE_URL=https://dotenv.example\n`);
    const run = spawnIn(
      cwd,
      'src/cli/index.ts',
      [
        'export:ics',
        '--site-url',
        'https://flag.example',
        '--database-url',
        env.config.databaseUrl,
      ],
      { DATABASE_URL: decoyUrl, SITE_URL: 'https://env.example' },
    );
    expectExport(run, 'https://flag.example');
  }, 60_000);

  it('(c) with only a .env file in the working directory', () => {
    const cwd = workDir(
      'c',
      `# written by the test\nDATABASE_URL="${env.config.databaseUrl}"\nSITE_URL=https://dotenv.example\n`,
    );
    const run = spawnIn(cwd, 'src/cli/index.ts', ['export:ics'], {});
    expectExport(run, 'https://dotenv.example');
  }, 60_000);
});

describe('configuration flags and .env of the other entry points', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-cli-flags-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a bad flag value is a usage error naming the flag (exit 2)', async () => {
    const databaseUrl = `sqlite:${path.join(dir, 'flags.sqlite')}`;
    const bad = await quietCli(['user:list', '--site-url', 'ftp://cal.example'], {
      DATABASE_URL: databaseUrl,
    });
    expect(bad).toMatchObject({
      status: 2,
      stderr: 'user:list: --site-url must be an absolute http(s) URL, got "ftp://cal.example".\n',
    });
    const empty = await quietCli(['user:list', '--database-url', ' '], {});
    expect(empty).toMatchObject({
      status: 2,
      stderr: 'user:list: --database-url must not be empty.\n',
    });
  });

  it('--help documents --database-url and --site-url', async () => {
    const help = await quietCli(['--help'], {});
    expect(help.stdout).toMatch(/--database-url URL .*DATABASE_URL/);
    expect(help.stdout).toMatch(/--site-url URL .*SITE_URL/);
    expect(help.stdout).toMatch(/\.env/);
  });

  it('the server reads a .env of its working directory', () => {
    const cwd = path.join(dir, 'server');
    fs.mkdirSync(cwd);
    fs.writeFileSync(
      path.join(cwd, '.env'),
      'DATABASE_URL=sqlite::memory:\nSITE_TIMEZONE=Nowhere/Land\n',
    );
    const run = spawnIn(cwd, 'src/main.ts', [], {});
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      'Configuration error: SITE_TIMEZONE must be an IANA time zone such as "Europe/Paris", got "Nowhere/Land".',
    );
  }, 60_000);

  it('npm run migrate takes --database-url over the environment and .env', () => {
    const cwd = path.join(dir, 'migrate');
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(cwd, '.env'), 'DATABASE_URL=sqlite:./dotenv.sqlite\n');
    const run = spawnIn(
      cwd,
      'src/db/migrate-cli.ts',
      ['latest', '--database-url', 'sqlite:./flag.sqlite'],
      {
        DATABASE_URL: 'sqlite:./env.sqlite',
      },
    );
    expect(run).toMatchObject({ status: 0, stdout: expect.stringMatching(/^Applied: /) });
    expect(fs.readdirSync(cwd).filter((name) => name.endsWith('.sqlite'))).toEqual(['flag.sqlite']);
  }, 60_000);
});
