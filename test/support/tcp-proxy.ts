import { createServer, Socket, type Server } from 'node:net';

/**
 * A loopback TCP proxy the tests can cut and restore, to take "the database" away from a running
 * service and give it back, without touching the database server itself.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async open(port: number, target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(port, target);
    await proxy.resume();
    return proxy;
  }

  /** Accepts connections again on the same port. */
  async resume(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = new Socket();
      this.track(client);
      this.track(upstream);
      upstream.connect(this.target.port, this.target.host);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Drops every open connection and refuses new ones, like a database that went away. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }
}
