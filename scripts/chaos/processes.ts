import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/**
 * The processes the chaos run starts, each the leader of a process group of its own (a database
 * node's SST helpers, rsync daemons, die with it), so that every exit path can end all of them:
 * `stopAll` (graceful, then SIGKILL) on a normal end or a signal, `killAllNow` (synchronous) from
 * a process `exit` handler as the last resort.
 */

export interface Tracked {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string | null>;
  done: boolean;
}

const live = new Set<Tracked>();
/** Every group ever started: helpers may outlive their leader (a SIGKILLed node's rsync). */
const groups = new Set<number>();

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Append stdout and stderr to this file (default: discard them). */
  log?: string;
}

export function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  options: StartOptions = {},
): Tracked {
  const out = options.log ? fs.openSync(options.log, 'a') : 'ignore';
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', out, out],
  });
  if (typeof out === 'number') fs.closeSync(out);
  const tracked: Tracked = { name, child, exited: Promise.resolve(null), done: false };
  tracked.exited = new Promise((resolve) => {
    const finish = (code: number | string | null) => {
      tracked.done = true;
      live.delete(tracked);
      resolve(code);
    };
    child.once('exit', (code, signal) => finish(code ?? signal));
    child.once('error', (error) => finish(error.message));
  });
  if (child.pid !== undefined) groups.add(child.pid);
  live.add(tracked);
  return tracked;
}

/** Sends `signal` to the process group of `tracked` (ignored when it is gone). */
export function signalGroup(tracked: Tracked, signal: NodeJS.Signals): void {
  const pid = tracked.child.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopProcess(tracked: Tracked, graceMs = 20_000): Promise<void> {
  if (tracked.done) return;
  signalGroup(tracked, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  const outcome = await Promise.race([tracked.exited, late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    signalGroup(tracked, 'SIGKILL');
    await tracked.exited;
  }
}

/** Ends every process still running, then kills what is left of their groups. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((tracked) => stopProcess(tracked)));
  killGroupsNow();
}

/** Synchronous last resort (process `exit` handlers cannot wait). */
export function killAllNow(): void {
  for (const tracked of live) signalGroup(tracked, 'SIGKILL');
  killGroupsNow();
}

function killGroupsNow(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** `count` distinct free TCP ports on 127.0.0.1 (held open together, so none repeats). */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      servers.push(server);
    }
    return servers.map((server) => (server.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `everyMs` until it answers true; throws `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
