import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The real server as a child process (`node --import tsx src/main.ts`), for tests that need a process to kill,
 * signal or start against an unreachable database. Output is collected line by line; JSON log
 * lines (request logs) can be parsed with `logs()`, life-cycle lines are plain text.
 */

const root = path.join(__dirname, '..', '..');

export interface LogLine {
  level?: string;
  msg?: string;
  [key: string]: unknown;
}

export class ServerProcess {
  readonly child: ChildProcess;
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string>;
  private readonly listeners = new Set<() => void>();

  constructor(env: Record<string, string>) {
    // `node --import tsx`, not the tsx CLI: the CLI runs the script in a child process of its
    // own, so a SIGKILL would only kill the wrapper and leave the server running.
    this.child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.collect(this.child.stdout!, this.stdout);
    this.collect(this.child.stderr!, this.stderr);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        resolve(code ?? signal ?? 'unknown');
        this.notify();
      });
    });
  }

  private collect(stream: NodeJS.ReadableStream, into: string[]): void {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      into.push(...lines.filter((line) => line.trim() !== ''));
      this.notify();
    });
    stream.on('end', () => {
      if (partial.trim() !== '') into.push(partial);
      this.notify();
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** stdout lines that are JSON log objects. */
  logs(): LogLine[] {
    return this.stdout.flatMap((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return parsed && typeof parsed === 'object' ? [parsed as LogLine] : [];
      } catch {
        return [];
      }
    });
  }

  /** Waits until `test` holds (checked on each output line and at exit), or fails. */
  async waitFor<T>(
    what: string,
    test: () => T | undefined | false,
    timeoutMs = 30_000,
  ): Promise<T> {
    const found = test();
    if (found) return found;
    return new Promise<T>((resolve, reject) => {
      const check = (): void => {
        const value = test();
        if (value) {
          done();
          resolve(value);
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          done();
          reject(new Error(`server exited before ${what}:\n${this.output()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${what}:\n${this.output()}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
    });
  }

  /** Waits for the "listening" line; returns the base URL. */
  async listening(timeoutMs = 30_000): Promise<string> {
    const port = await this.waitFor(
      'the listening line',
      () => {
        for (const line of this.stdout) {
          const found = /^Calendar service listening on http:\/\/[^\s]+:(\d+)$/.exec(line);
          if (found) return found[1];
        }
        return undefined;
      },
      timeoutMs,
    );
    return `http://127.0.0.1:${port}`;
  }

  /** The first line of stdout or stderr matching `pattern`. */
  line(pattern: RegExp): string | undefined {
    return [...this.stdout, ...this.stderr].find((line) => pattern.test(line));
  }

  output(): string {
    return [...this.stdout, ...this.stderr.map((l) => `[stderr] ${l}`)].join('\n');
  }

  signal(name: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(name);
  }

  /** Kills the process if still running and waits for it. */
  async stop(): Promise<void> {
    this.signal('SIGKILL');
    await this.exited;
  }
}

/**
 * Servers a `describe` block spawns, each on a SQLite file of its own in a temporary folder
 * (`sqlite(name)`): the one a test started is stopped after it, the folder removed after all.
 */
export function spawnedServers(prefix: string): {
  sqlite(name: string): string;
  start(env: Record<string, string>): ServerProcess;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let running: ServerProcess | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    sqlite: (name) => `sqlite:${path.join(dir, name)}`,
    start: (env) => (running = new ServerProcess(env)),
  };
}
