import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Metrics } from "./metrics.ts";

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a listener of its own (METRICS_HOST:METRICS_PORT): never on the public API's
 * port, so neither the load balancer nor the internet can read business figures.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: { host: string; port: number; onError: (err: unknown) => void },
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { "content-type": contentType }).end(body),
      (err: unknown) => {
        options.onError(err);
        res.writeHead(500, { "content-type": "text/plain" }).end("Metrics unavailable\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
