import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../src/db/knex';
import { ServerProcess } from '../support/process';

/**
 * WORKERS=2 (src/http/cluster.ts): the real server as a cluster on one SQLite file. The primary
 * migrates and bootstraps once; both workers answer, each on a connection of its own (the
 * primary hands connections out in turn); a killed worker is replaced; SIGTERM on the primary
 * drains the workers and exits 0. Request log lines carry the answering worker's pid.
 */

const TOKEN = 'cluster-admin-token-0123456789';
const EVENTS = '/wp-json/calendar/events/v1/events';

interface Answer {
  status: number;
  body: string;
}

/** One request on a fresh connection (no keep-alive), so that each may go to another worker. */
function request(base: string, method: string, target: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(`${base}${target}`), {
      method,
      agent: false,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.end(payload);
  });
}

/** Pids named by the workers' "Worker <pid> listening on …" lines, in order. */
function workerPids(server: ServerProcess): number[] {
  return server.stdout.flatMap((line) => {
    const found = /^Worker (\d+) listening on http:\/\//.exec(line);
    return found ? [Number(found[1])] : [];
  });
}

/** Pids of the request log lines for `target`. */
function answeringPids(server: ServerProcess, target: string): Set<number> {
  return new Set(
    server
      .logs()
      .filter((log) => log.msg === 'request' && log.path === target)
      .map((log) => log.pid as number),
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('WORKERS=2: node:cluster [sqlite]', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-cluster-'));
  const file = path.join(dir, 'cluster.sqlite');
  let server: ServerProcess;
  let base: string;

  beforeAll(async () => {
    server = new ServerProcess({
      DATABASE_URL: `sqlite:${file}`,
      ADMIN_TOKEN: TOKEN,
      WORKERS: '2',
    });
    base = await server.listening(60_000);
  }, 90_000);

  afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Creates an event of one hour on `day` through REST (201 expected); its id. */
  async function createEvent(title: string, day: string): Promise<number> {
    const created = await request(base, 'POST', EVENTS, {
      title,
      start_date: `${day} 10:00:00`,
      end_date: `${day} 11:00:00`,
    });
    expect(created.status).toBe(201);
    return (JSON.parse(created.body) as { id: number }).id;
  }

  it('migrates and creates the administrator once, in the primary; two workers listen', () => {
    expect(server.stdout.filter((line) => /^Applied \d+ migration\(s\)/.test(line))).toHaveLength(
      1,
    );
    expect(server.stdout.filter((line) => line.startsWith('Created the administrator'))).toEqual([
      'Created the administrator "admin"; its bearer token is the value of ADMIN_TOKEN.',
    ]);
    expect(server.line(/^Starting 2 workers/)).toBeDefined();
    expect(server.line(/share the SQLite file .*cluster\.sqlite \(WAL mode\)/)).toBeDefined();
    const pids = workerPids(server);
    expect(pids).toHaveLength(2);
    expect(new Set(pids).size).toBe(2);
    expect(pids).not.toContain(server.child.pid);
    expect(server.output()).not.toMatch(/Migration table is already locked/);
  });

  it('answers reads and writes, from both workers', async () => {
    const id = await createEvent('Served by a cluster', '2027-09-01');

    const target = `${EVENTS}/${id}`;
    for (let i = 0; i < 6; i++) {
      const read = await request(base, 'GET', target);
      expect(read.status).toBe(200);
      expect(JSON.parse(read.body)).toMatchObject({ id, title: 'Served by a cluster' });
    }
    expect((await request(base, 'GET', EVENTS)).status).toBe(200);

    // Connections go to the workers in turn (round-robin, node:cluster's default but on
    // Windows), so six on fresh connections reach both.
    const workers = new Set(workerPids(server));
    const pids = await server.waitFor('request logs from both workers', () => {
      const seen = answeringPids(server, target);
      return seen.size === 2 ? seen : undefined;
    });
    expect([...pids].every((pid) => workers.has(pid))).toBe(true);
  }, 30_000);

  it("a write waits for another process's SQLite write lock instead of failing", async () => {
    const id = await createEvent('Before the lock', '2027-09-02');

    // Another process (this one) holds the write lock; the update reads its event first, so a
    // deferred transaction would have to upgrade to writing, which SQLite refuses at once.
    const other = createDb({ databaseUrl: `sqlite:${file}`, poolMax: 1 });
    const trx = await other.transaction();
    try {
      await trx('name_locks').insert({ lock_key: 'held-by-the-cluster-test' });
      const update = request(base, 'POST', `${EVENTS}/${id}`, { title: 'After the lock' });
      let answered = false;
      void update.then(() => (answered = true));
      await sleep(500);
      const answeredWhileLocked = answered;
      await trx.rollback();
      const answer = await update;
      expect(answer.status).toBe(200);
      expect(answeredWhileLocked).toBe(false);
      expect(JSON.parse(answer.body)).toMatchObject({ id, title: 'After the lock' });
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
      await other.destroy();
    }
  }, 30_000);

  it('replaces a worker killed with SIGKILL', async () => {
    const [victim, survivor] = workerPids(server);
    process.kill(victim!, 'SIGKILL');
    const replacement = await server.waitFor('a third worker', () => workerPids(server)[2]);
    expect([victim, survivor]).not.toContain(replacement);
    expect(
      server.line(new RegExp(`^Worker ${victim} was killed by SIGKILL; starting another`)),
    ).toBeDefined();
    expect(isRunning(victim!)).toBe(false);
    for (let i = 0; i < 4; i++) {
      expect((await request(base, 'GET', EVENTS)).status).toBe(200);
    }
  }, 30_000);

  it('SIGTERM on the primary: every worker drains and exits, then the primary exits 0', async () => {
    const live = workerPids(server).slice(-2);
    expect(live.every(isRunning)).toBe(true);
    server.signal('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.line(/^SIGTERM received: stopping 2 worker\(s\)/)).toBeDefined();
    expect(
      server.stdout.filter(
        (line) => line === 'Stopped: every request answered, database pool closed.',
      ),
    ).toHaveLength(2);
    expect(server.line(/^Stopped: every worker/)).toBe(
      'Stopped: every worker finished its requests and exited.',
    );
    expect(live.some(isRunning)).toBe(false);
  }, 30_000);
});
