import net from 'node:net';

/**
 * A TCP proxy the tests put between the service and MariaDB, to simulate outages without
 * touching the shared server: `cut()` drops every open connection and then either refuses new
 * ones (reset right after accept, like a stopped server) or swallows them (accepted, never
 * answered, like a network black hole); `restore()` forwards again.
 */

export type CutMode = 'refuse' | 'blackhole';

export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  /** Accepted while black-holed: never forwarded. */
  private readonly held = new Set<net.Socket>();
  private mode: 'forward' | CutMode = 'forward';
  /** Connections accepted so far (forwarded or not). */
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on a free port of 127.0.0.1; returns it. */
  async start(): Promise<number> {
    const server = net.createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return this.port;
  }

  get port(): number {
    const address = this.server?.address();
    if (!address || typeof address === 'string') throw new Error('proxy not listening');
    return address.port;
  }

  /** Drops every open connection; new ones are refused or black-holed until `restore()`. */
  cut(mode: CutMode = 'refuse'): void {
    this.mode = mode;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.mode = 'forward';
    // Black-holed connections never reached the server: drop them so their clients notice.
    for (const socket of this.held) socket.destroy();
    this.held.clear();
  }

  async stop(): Promise<void> {
    this.cut('refuse');
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private accept(client: net.Socket): void {
    this.accepted++;
    if (this.mode === 'refuse') {
      client.on('error', () => {});
      client.resetAndDestroy();
      return;
    }
    this.track(client);
    if (this.mode === 'blackhole') {
      client.pause();
      this.held.add(client);
      client.on('close', () => this.held.delete(client));
      return;
    }
    const upstream = net.connect(this.targetPort, this.targetHost);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
