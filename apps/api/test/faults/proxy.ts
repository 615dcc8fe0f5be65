import { once } from "node:events";
import { createConnection, createServer, type Server, type Socket } from "node:net";

/*
 * A loopback TCP proxy between the app and PostgreSQL that can drop every connection at a chosen
 * point of the traffic: when a query whose text contains a marker is on its way to the server, all
 * proxied sockets are destroyed before it arrives, so the transaction around it is cut in the middle
 * (the server rolls it back). Until `restore()`, new connections are refused the same way.
 */

interface Armed {
  marker: string;
}

export class PgProxy {
  private readonly sockets = new Set<Socket>();
  private armed: Armed | undefined;
  private down = false;
  /** How many times the proxy cut the connections. */
  cuts = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<PgProxy> {
    let proxy: PgProxy | undefined;
    const server = createServer((client) => proxy?.accept(client, target));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("proxy has no port");
    proxy = new PgProxy(server, address.port);
    return proxy;
  }

  /** `url` (a PostgreSQL connection string) pointed at the proxy instead. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(this.port);
    return proxied.toString();
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    if (this.down) {
      client.destroy();
      return;
    }
    const upstream = createConnection(target);
    this.sockets.add(client).add(upstream);
    // The marker may straddle two chunks: the tail of the previous one is searched with the next.
    let tail = "";
    client.on("data", (chunk: Buffer) => {
      const text = tail + chunk.toString("latin1");
      const armed = this.armed;
      if (armed && text.includes(armed.marker)) {
        this.armed = undefined;
        this.cutAll();
        return;
      }
      tail = armed ? text.slice(-armed.marker.length) : "";
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on("error", () => b.destroy());
      a.on("close", () => {
        this.sockets.delete(a);
        b.destroy();
      });
    }
  }

  /** Cuts every connection when a query containing `marker` is on its way (once); `cuts` counts it. */
  cutAt(marker: string): void {
    this.armed = { marker };
  }

  private cutAll(): void {
    this.down = true;
    this.cuts++;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Accepts connections again (the database is back). */
  restore(): void {
    this.armed = undefined;
    this.down = false;
  }

  async close(): Promise<void> {
    this.armed = undefined;
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
