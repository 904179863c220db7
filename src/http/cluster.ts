import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config';
import { dialectOf } from '../db';

/**
 * WORKERS>1: this process, the primary, forks that many workers that each serve the whole API on
 * the same port (node:cluster shares the listening socket and hands out connections in turn).
 * The primary serves nothing. main.ts has already migrated and bootstrapped, once, so workers
 * never race for Knex's migration lock or print a token. The primary restarts a worker that dies
 * and forwards SIGTERM/SIGINT, so that each worker drains its requests as a lone process would.
 */

/** A signal forwarded by the primary; `again`: the second one, which means "exit now". */
interface ShutdownMessage {
  calendar: 'shutdown';
  signal: NodeJS.Signals;
  again: boolean;
}

const FIRST_RESTART_DELAY_MS = 250;
const MAX_RESTART_DELAY_MS = 5_000;
/** A worker that dies before listening, or this soon after it started, failed to start. */
const STARTUP_WINDOW_MS = 10_000;
/** Failed starts in a row of one worker after which the primary stops everything (exit 1). */
const MAX_FAILED_STARTS = 5;
/** A worker still running this long after SHUTDOWN_TIMEOUT_MS (event loop stuck) is killed. */
const KILL_MARGIN_MS = 5_000;

/** One of the WORKERS places: the worker filling it now, and its record of failed starts. */
interface Slot {
  worker?: Worker;
  startedAt: number;
  listening: boolean;
  failedStarts: number;
  restart?: NodeJS.Timeout;
}

function isShutdownMessage(message: unknown): message is ShutdownMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as Partial<ShutdownMessage>).calendar === 'shutdown'
  );
}

/** In a cluster worker, `handler` runs when the primary forwards a signal; elsewhere nothing. */
export function onPrimaryShutdown(handler: (signal: NodeJS.Signals, again: boolean) => void): void {
  if (!cluster.isWorker) return;
  process.on('message', (message: unknown) => {
    if (isShutdownMessage(message)) handler(message.signal, message.again);
  });
}

/**
 * Forks the workers and supervises them until a signal (or repeated failed starts) ends it. Each
 * worker gets `env`, the variables the primary resolved (environment and `.env`), so it loads
 * the very configuration the primary checked even if `.env` changes meanwhile.
 */
export function runPrimary(config: Config, env: Record<string, string>): void {
  const slots: Slot[] = Array.from({ length: config.workers }, () => ({
    startedAt: 0,
    listening: false,
    failedStarts: 0,
  }));
  const live = new Map<number, Slot>();
  let announced = false;
  let stopping = false;
  let failed = false;

  console.log(`Starting ${config.workers} workers (WORKERS).`);
  if (dialectOf(config.databaseUrl) === 'sqlite') {
    console.log(
      `The ${config.workers} workers share the SQLite file ` +
        `${config.databaseUrl.replace(/^sqlite:(\/\/)?/, '')} ` +
        '(WAL mode): reads run side by side, writes take turns.',
    );
  }

  const fork = (slot: Slot): void => {
    slot.restart = undefined;
    const worker = cluster.fork(env);
    // Without a listener an 'error' (a failed kill or send) would throw in the primary.
    worker.on('error', (err: Error) =>
      console.warn(`Worker ${worker.process.pid}: ${err.message}`),
    );
    Object.assign(slot, { worker, startedAt: Date.now(), listening: false });
    live.set(worker.id, slot);
  };

  const finish = (): void => {
    console.log(
      failed
        ? 'Stopped: not every worker stopped cleanly.'
        : 'Stopped: every worker finished its requests and exited.',
    );
    process.exit(failed ? 1 : 0);
  };

  const forward = (signal: NodeJS.Signals, again: boolean): void => {
    for (const slot of live.values()) {
      const worker = slot.worker!;
      // Listening means its signal handlers are in place (main.ts sets them up before); one
      // still starting has nothing to drain, and a plain signal stops it.
      if (slot.listening) {
        const message: ShutdownMessage = { calendar: 'shutdown', signal, again };
        worker.send(message, () => {}); // a closed channel: its 'exit' tells the rest
      } else {
        worker.process.kill(signal);
      }
    }
  };

  const stop = (signal: NodeJS.Signals, reason: string): void => {
    if (stopping) {
      console.warn(`${signal} received again: stopping the workers now.`);
      forward(signal, true);
      return;
    }
    stopping = true;
    for (const slot of slots) clearTimeout(slot.restart);
    console.log(
      `${reason}: stopping ${live.size} worker(s); each finishes its requests in flight ` +
        `(at most SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs} ms).`,
    );
    if (live.size === 0) return finish();
    forward(signal, false);
    setTimeout(() => {
      for (const slot of live.values()) slot.worker!.process.kill('SIGKILL');
    }, config.shutdownTimeoutMs + KILL_MARGIN_MS).unref();
  };

  cluster.on('listening', (worker, address) => {
    const slot = live.get(worker.id);
    if (!slot) return;
    slot.listening = true;
    if (announced || !slots.every((s) => s.listening)) return;
    // The same line as a single process, once the whole service is up.
    announced = true;
    console.log(`Calendar service listening on http://${config.host}:${address.port}`);
    console.log(`  GraphQL: ${config.siteUrl}/graphql`);
  });

  cluster.on('exit', (worker, code, signal) => {
    const slot = live.get(worker.id);
    if (!slot) return;
    live.delete(worker.id);
    slot.worker = undefined;
    const pid = worker.process.pid;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (stopping) {
      // A worker stopped before it listened had no request to finish.
      if (slot.listening && code !== 0) {
        failed = true;
        console.warn(`Worker ${pid} ${how}.`);
      }
      if (live.size === 0) finish();
      return;
    }
    const early = !slot.listening || Date.now() - slot.startedAt < STARTUP_WINDOW_MS;
    slot.failedStarts = early ? slot.failedStarts + 1 : 0;
    if (slot.failedStarts >= MAX_FAILED_STARTS) {
      failed = true;
      console.error(
        `Worker ${pid} ${how}: ${MAX_FAILED_STARTS} failed starts in a row, giving up.`,
      );
      stop('SIGTERM', 'Giving up');
      return;
    }
    const delay = Math.min(FIRST_RESTART_DELAY_MS * 2 ** slot.failedStarts, MAX_RESTART_DELAY_MS);
    console.warn(`Worker ${pid} ${how}; starting another in ${delay} ms.`);
    slot.restart = setTimeout(() => fork(slot), delay);
  });

  process.on('SIGTERM', () => stop('SIGTERM', 'SIGTERM received'));
  process.on('SIGINT', () => stop('SIGINT', 'SIGINT received'));
  for (const slot of slots) fork(slot);
}
