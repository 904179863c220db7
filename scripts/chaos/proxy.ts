import http from 'node:http';

/**
 * A small round-robin HTTP load balancer in front of the service instances, as any would be:
 * it probes each backend's `/readyz` every 500 ms and sends requests only to ready ones; a
 * request whose backend refuses the connection (it never arrived) goes to the next one; a
 * connection lost mid-request answers 502 (the outcome is unknown: never resent).
 */

export interface Proxy {
  port: number;
  close(): Promise<void>;
}

export async function startProxy(backends: readonly number[]): Promise<Proxy> {
  const ready = new Map<number, boolean>(backends.map((port) => [port, true]));
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  const probe = () => {
    for (const port of backends) {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/readyz', timeout: 1_000, agent },
        (res) => {
          ready.set(port, res.statusCode === 200);
          res.resume();
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => ready.set(port, false));
    }
  };
  const probing = setInterval(probe, 500);

  const pick = (tried: Set<number>): number | undefined => {
    const candidates = backends.filter((port) => !tried.has(port));
    const live = candidates.filter((port) => ready.get(port));
    const pool = live.length ? live : candidates;
    if (!pool.length) return undefined;
    return pool[next++ % pool.length];
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tried = new Set<number>();
      const send = (): void => {
        const port = pick(tried);
        if (port === undefined) {
          res.writeHead(503, { 'content-type': 'text/plain' }).end('no backend');
          return;
        }
        tried.add(port);
        const upstream = http.request(
          {
            host: '127.0.0.1',
            port,
            method: req.method,
            path: req.url,
            headers: req.headers,
            agent,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('error', () => res.destroy());
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED' && !res.headersSent) {
            ready.set(port, false);
            send();
            return;
          }
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('lost');
          else res.destroy();
        });
        upstream.end(body);
      };
      send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: async () => {
      clearInterval(probing);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
