import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Issue 14, item 7: build once (`npm run build`, also run by `prepare` at install), start fast.
 * The build is a transpile-only esbuild pass (scripts/build.mjs) into dist/ in tsc's layout;
 * `npm start`, `npm run calendar` and `npm run migrate` run the compiled JavaScript and rebuild
 * first only when a source is newer than the last build. Timings are logged, not asserted: the
 * machine running the suite is shared.
 */

const root = path.join(__dirname, '..', '..');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.build-stamp');

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const started = performance.now();
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { ...result, ms: Math.round(performance.now() - started) };
}

const sources = (dir: string): string[] =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f));

describe('the compiled build', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-fast-start-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('npm run build compiles every source, each migration included, and drops orphans', () => {
    // A compiled migration whose source is gone would still run: the build must remove it.
    fs.mkdirSync(path.join(dist, 'migrations'), { recursive: true });
    const orphan = path.join(dist, 'migrations', '29991231000000_deleted_since.js');
    fs.writeFileSync(orphan, 'exports.up = async () => { throw new Error("stale"); };\n');
    const build = run('npm', ['run', 'build']);
    console.log(`npm run build: ${build.ms} ms (${build.stderr.trim().split('\n').at(-1)})`);
    expect(build.status).toBe(0);
    const missing = ['src', 'resolvers', 'migrations']
      .flatMap(sources)
      .map((file) => file.replace(/\.ts$/, '.js'))
      .filter((file) => !fs.existsSync(path.join(dist, file)));
    expect(missing).toEqual([]);
    expect(sources('migrations').length).toBeGreaterThan(0);
    expect(fs.existsSync(orphan)).toBe(false);
    // The pages' style sheet and templates (static/templates/*.eta), copied byte for byte.
    const statics = fs
      .readdirSync(path.join(root, 'src', 'web', 'static'), { recursive: true, encoding: 'utf8' })
      .filter((file) => fs.statSync(path.join(root, 'src', 'web', 'static', file)).isFile());
    expect(statics).toEqual(
      expect.arrayContaining(['calendar.css', path.join('templates', 'event.eta')]),
    );
    for (const file of statics) {
      expect(fs.readFileSync(path.join(dist, 'src', 'web', 'static', file))).toEqual(
        fs.readFileSync(path.join(root, 'src', 'web', 'static', file)),
      );
    }
  });

  it('rebuilds with --if-stale only when a source is newer than the last build', () => {
    // As if the last build came after every save (whatever else is being edited meanwhile) …
    const later = new Date(Date.now() + 3_600_000);
    fs.utimesSync(stamp, later, later);
    const fresh = run(process.execPath, ['scripts/build.mjs', '--if-stale']);
    expect(fresh).toMatchObject({ status: 0, stderr: '' });
    // … then as if every source had been saved after it: the build runs and re-stamps.
    fs.utimesSync(stamp, new Date(0), new Date(0));
    const stale = run(process.execPath, ['scripts/build.mjs', '--if-stale']);
    expect(stale.status).toBe(0);
    expect(stale.stderr).toMatch(/^Built \d+ files into dist\/ in \d+ ms\.$/m);
    expect(fs.statSync(stamp).mtimeMs).toBeGreaterThan(0);
    expect(fs.statSync(stamp).mtimeMs).toBeLessThan(later.getTime());
    console.log(`--if-stale: ${fresh.ms} ms when fresh, ${stale.ms} ms rebuilding`);
  });

  it('runs the CLI as compiled JavaScript: --help exits 0 with the usage', () => {
    const direct = run(process.execPath, ['dist/src/cli/index.js', '--help']);
    expect(direct.status).toBe(0);
    expect(direct.stdout).toMatch(/^Usage: npm run calendar -- <command> \[options\]$/m);
    expect(direct.stdout).toMatch(/^ {2}seed:demo /m);
    const viaNpm = run('npm', ['run', 'calendar', '--', '--help']);
    expect(viaNpm.status).toBe(0);
    expect(viaNpm.stdout).toContain('> node dist/src/cli/index.js --help');
    expect(viaNpm.stdout).toContain(direct.stdout);
    console.log(`calendar --help: ${direct.ms} ms (node), ${viaNpm.ms} ms (npm run)`);
  });

  it('npm run migrate runs the compiled migrations', () => {
    const url = `sqlite:${path.join(tmp, 'migrate.sqlite')}`;
    const migrate = run('npm', ['run', '--silent', 'migrate'], { DATABASE_URL: url });
    expect(migrate.status).toBe(0);
    const names = sources('migrations').map((f) => path.basename(f, '.ts'));
    expect(migrate.stdout.trim()).toBe(`Applied: ${names.sort().join(', ')}`);
  });

  it('npm start answers /healthz from the compiled server', async () => {
    const started = performance.now();
    // Its own process group: npm → sh → node all stop together.
    const child = spawn('npm', ['start'], {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_URL: `sqlite:${path.join(tmp, 'start.sqlite')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      let status = 0;
      while (status !== 200) {
        if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
        const port = /listening on http:\/\/[^\s]+:(\d+)$/m.exec(output)?.[1];
        if (port) status = (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      console.log(`npm start → /healthz 200 in ${Math.round(performance.now() - started)} ms`);
      expect(output).toContain('> MALLOC_ARENA_MAX=2 node --max-semi-space-size=32');
      expect(output).toContain('dist/src/main.js');
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
      }
    }
  }, 60_000);
});
