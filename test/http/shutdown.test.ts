import http from 'node:http';
import net from 'node:net';
import { createDb } from '../../src/db/knex';
import { spawnedServers } from '../support/process';

/**
 * Graceful shutdown (ISSUE 5): on SIGTERM the server stops accepting connections, lets the
 * requests in flight finish (here: a POST whose body is still arriving), closes the database
 * pool and exits 0; past SHUTDOWN_TIMEOUT_MS it cuts what is left and exits 1.
 */

const TOKEN = 'shutdown-admin-token-0123456789';

interface SlowRequest {
  /** Sends the rest of the body. */
  finish(): void;
  response: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>;
}

/** A POST /events whose body is sent in two parts: the request is in flight in between. */
function slowPost(base: string, title: string): SlowRequest {
  const body = JSON.stringify({
    title,
    start_date: '2027-07-01 10:00:00',
    end_date: '2027-07-01 11:00:00',
  });
  const url = new URL(`${base}/wp-json/calendar/events/v1/events`);
  const request = http.request(url, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  const response = new Promise<{
    status: number;
    headers: http.IncomingHttpHeaders;
    body: string;
  }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
      res.on('error', reject);
    });
  });
  request.write(body.slice(0, 20));
  return { finish: () => request.end(body.slice(20)), response };
}

/** Does a new TCP connection to the server get through? */
function connects(base: string): Promise<boolean> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown [sqlite]', () => {
  const servers = spawnedServers('cal-shutdown-');

  it('SIGTERM: stops accepting, drains the request in flight, closes the pool, exits 0', async () => {
    const databaseUrl = servers.sqlite('drain.sqlite');
    const server = servers.start({ DATABASE_URL: databaseUrl, ADMIN_TOKEN: TOKEN });
    const base = await server.listening();
    // An idle keep-alive connection must not hold the shutdown up.
    const idle = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http
        .get(`${base}/wp-json/calendar/events/v1/events`, { agent: idle }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject),
    );

    const slow = slowPost(base, 'Drained on shutdown');
    await sleep(300);
    server.signal('SIGTERM');
    const line = await server.waitFor('the shutdown line', () =>
      server.line(/^SIGTERM received: shutting down/),
    );
    expect(line).toContain('waiting for 1 request(s) in flight');
    expect(await connects(base)).toBe(false);

    await sleep(200);
    slow.finish();
    const response = await slow.response;
    expect(response.status).toBe(201);
    const id = (JSON.parse(response.body) as { id: number }).id;

    expect(await server.exited).toBe(0);
    expect(server.line(/^Stopped/)).toBe('Stopped: every request answered, database pool closed.');
    idle.destroy();

    const db = createDb({ databaseUrl, poolMax: 1 });
    try {
      expect(await db('events').where({ id }).first()).toMatchObject({
        title: 'Drained on shutdown',
      });
    } finally {
      await db.destroy();
    }
  }, 45_000);

  it('past SHUTDOWN_TIMEOUT_MS: cuts the request still in flight and exits 1', async () => {
    const databaseUrl = servers.sqlite('deadline.sqlite');
    const server = servers.start({
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN: TOKEN,
      SHUTDOWN_TIMEOUT_MS: '800',
    });
    const base = await server.listening();
    const stuck = slowPost(base, 'Never finished');
    const outcome = stuck.response.then(
      () => 'answered',
      () => 'cut',
    );
    await sleep(300);
    const started = Date.now();
    server.signal('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await outcome).toBe('cut');
    expect(
      server.line(/request\(s\) still running after SHUTDOWN_TIMEOUT_MS=800 ms/),
    ).toBeDefined();
    expect(server.line(/^Stopped/)).toBe('Stopped (requests cut): database pool closed.');
  }, 45_000);
});
