import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The processes of a run: the build, the servers under test, the harness's scripts. */

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const SHARED = path.join(__dirname, 'shared');

const say = (line: string) => process.stderr.write(`${line}\n`);

export function buildService(): void {
  say('npm run build');
  const result = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
}

/**
 * Our service's command line as `npm start` runs it — its environment settings (`NAME=value`
 * before `node`) and V8 flags — without `node`: the benchmark measures what production runs.
 */
export function serviceCommand(): { env: Record<string, string>; args: string[] } {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let setting: RegExpExecArray | null;
  while ((setting = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(words[0] ?? ''))) {
    env[setting[1]!] = setting[2]!;
    words.shift();
  }
  const [command, ...args] = words;
  if (command !== 'node') throw new Error(`package.json start must run node, got "${command}"`);
  return { env, args };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Server {
  name: string;
  pid: number;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` with `env`, its output in `<logDir>/<name>.log`, and waits until `ready`
 * (a URL) answers 2xx.
 */
export async function startServer(
  name: string,
  args: string[],
  env: Record<string, string>,
  port: number,
  ready: string,
  logDir: string,
): Promise<Server> {
  const log = fs.openSync(path.join(logDir, `${name}.log`), 'w');
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', log, log],
  });
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== null) {
      throw new Error(`${name} exited (${exited}) while starting: see ${logDir}/${name}.log`);
    }
    try {
      const response = await fetch(ready);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not become ready: ${ready}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  say(`${name} ready: pid ${child.pid} port ${port}`);
  return {
    name,
    pid: child.pid!,
    port,
    stop: () =>
      new Promise((resolve) => {
        if (exited !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/** Runs one of the shared harness's scripts to its end; returns its standard output. */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(SHARED, script), ...args], {
      cwd: SHARED,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const log = fs.createWriteStream(logFile);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      log.write(d);
      process.stderr.write(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      log.write(d);
      process.stderr.write(d);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      log.end();
      if (code === 0) resolve(out);
      else reject(new Error(`${script} failed (${code}); see ${logFile}`));
    });
  });
}
