import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDb, type TestEnv } from '../../support/harness';
import { cli, tempDir } from '../import-support';

/**
 * The progress bar of `import:csv` and `import:ics`: drawn on standard error when it is a
 * terminal (here a pseudo-terminal made by util-linux `script`), moving while the file is read;
 * absent when standard error is piped, and when CI=true even on a terminal.
 */

const root = path.join(__dirname, '..', '..', '..');
const tsx = require.resolve('tsx/cli');
const SCRIPT = '/usr/bin/script';

/** Runs the CLI in a process of its own, under `script` (a terminal) or piped; all its output. */
function run(env: TestEnv, terminal: boolean, ci: boolean, ...args: string[]): Promise<string> {
  const command = [process.execPath, tsx, 'src/cli/index.ts', ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const variables: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: env.config.databaseUrl,
    SITE_URL: env.config.siteUrl,
  };
  delete variables.CI;
  if (ci) variables.CI = 'true';
  const [file, argv] = terminal
    ? [SCRIPT, ['-qefc', command, '/dev/null']]
    : ['/bin/sh', ['-c', command]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: root,
      env: variables,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(output));
  });
}

/** The bar's lines, as cli-progress draws them (`import:csv [===---] 40% | 800 rows | …`). */
const BAR = /import:(csv|ics) \[[=-]{30}\] \d+% \| [\d,]+ rows \| [\d,]+ rows\/s \| ETA/g;

describeEachDb('import progress', (env) => {
  const tmp = tempDir();
  const haveScript = fs.existsSync(SCRIPT);

  beforeAll(async () => {
    expect((await cli(env, 'seed:demo', '--events', '600')).status).toBe(0);
    expect((await cli(env, 'export:csv', tmp.file('events.csv'))).status).toBe(0);
    expect((await cli(env, 'export:ics', tmp.file('events.ics'))).status).toBe(0);
  }, 120_000);
  afterAll(() => tmp.remove());

  for (const format of ['csv', 'ics'] as const) {
    (haveScript ? it : it.skip)(
      `import:${format} draws a moving bar on a terminal`,
      async () => {
        const output = await run(
          env,
          true,
          false,
          `import:${format}`,
          tmp.file(`events.${format}`),
        );
        expect(output).toMatch(/0 created, 0 updated, 600 unchanged, 0 failed/);
        const bars = [...output.matchAll(BAR)].map((m) => m[0]);
        expect(bars.length).toBeGreaterThan(0);
        // It moved: some drawing shows rows read before the end.
        expect(bars.some((b) => !/\| 0 rows \|/.test(b))).toBe(true);
      },
      120_000,
    );

    it(`import:${format} draws nothing when piped, or under CI`, async () => {
      const piped = await run(env, false, false, `import:${format}`, tmp.file(`events.${format}`));
      expect(piped).toMatch(/600 unchanged/);
      expect(piped).not.toMatch(BAR);
      expect(piped).not.toContain('\u001b[');
      if (!haveScript) return;
      const ci = await run(env, true, true, `import:${format}`, tmp.file(`events.${format}`));
      expect(ci).toMatch(/600 unchanged/);
      expect(ci).not.toMatch(BAR);
    }, 120_000);
  }
});
