import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from './dataset';

/** The processes of a run: the build, the service and the raw baseline, each on a free port. */

export function buildService(): void {
  process.stderr.write('  npm run build\n');
  const result = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (result.status === 0) return;
  const main = path.join(REPO_ROOT, 'dist', 'src', 'main.js');
  const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-8).join('\n');
  // tsc still emits JavaScript on type errors, e.g. while a colleague's change is half done.
  if (fs.existsSync(main)) {
    process.stderr.write(`  the build reported errors; using the emitted dist/:\n${output}\n`);
    return;
  }
  throw new Error(`npm run build failed:\n${output}`);
}

/**
 * Whether dist/ has every migration of migrations/: a colleague's new migration must not reach
 * the dataset (migrated from the sources) without reaching the built service, which would then
 * refuse to start on a database "from the future".
 */
export function buildIsCurrent(): boolean {
  const names = (dir: string, ext: RegExp) =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => ext.test(f) && !f.endsWith('.d.ts'))
          .map((f) => f.replace(ext, ''))
      : [];
  const built = new Set(names(path.join(REPO_ROOT, 'dist', 'migrations'), /\.js$/));
  return names(path.join(REPO_ROOT, 'migrations'), /\.ts$/).every((name) => built.has(name));
}

/**
 * The service's command line as `npm start` runs it, without `node` and its prebuild step: the
 * benchmark measures what production runs, V8 flags included (package.json `scripts.start`).
 */
export function serviceArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`package.json start must run node, got "${command}"`);
  return args;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Running {
  name: string;
  child: ChildProcess;
  port: number;
  base: string;
  logFile: string;
  stop(): Promise<void>;
}

/** Starts `args` with the service's environment; resolves once `probe` answers over HTTP. */
export async function start(
  name: string,
  args: string[],
  env: Record<string, string>,
  probe: string,
  logDir: string,
): Promise<Running> {
  const port = await freePort();
  const logFile = path.join(logDir, `${name}.log`);
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const base = `http://127.0.0.1:${port}`;
  const running: Running = {
    name,
    child,
    port,
    base,
    logFile,
    stop: () => stop(child),
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`${name} exited with ${child.exitCode}; see ${logFile}`);
    }
    try {
      await fetch(base + probe);
      return running;
    } catch {
      if (Date.now() > deadline) {
        await running.stop();
        throw new Error(`${name} did not answer within 60 s; see ${logFile}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a process in MB, from /proc (Linux); null elsewhere. */
export function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples the peak RSS of `pid` every 250 ms until stopped. */
export function rssSampler(pid: number | undefined): { stop(): number | null } {
  let peak: number | null = rssMb(pid);
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now !== null) peak = Math.max(peak ?? 0, now);
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Runs an npm script to completion; resolves with its exit code and output. */
export function npm(args: string[], env: Record<string, string>): { code: number; output: string } {
  const result = spawnSync('npm', args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { code: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
}
