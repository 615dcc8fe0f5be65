import autocannon from "autocannon";
import type { Measurement } from "./lib/load.ts";

/*
 * autocannon for the clicks benchmark: like lib/load.ts (one request at a time per connection), with
 * PATCH, and either a duration or an exact number of requests.
 */

export interface ClickLoad {
  url: string;
  method: "POST" | "PATCH";
  headers: Record<string, string>;
  /** Each request's body and extra headers, made as it is sent. */
  request: () => { body: string; headers: Record<string, string> };
  connections: number;
  duration?: number;
  /** Exactly this many requests, all answered before the end (wins over `duration`). */
  amount?: number;
}

let current: autocannon.Instance | undefined;

export function stopClickLoad(): void {
  current?.stop();
}

export function fireClicks(label: string, load: ClickLoad): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    current = autocannon(
      {
        url: load.url,
        method: load.method,
        headers: load.headers,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => {
              const parts = load.request();
              return { ...req, body: parts.body, headers: { ...req.headers, ...parts.headers } };
            },
          },
        ],
        connections: load.connections,
        ...(load.amount ? { amount: load.amount } : { duration: load.duration ?? 10 }),
        pipelining: 1,
        timeout: 10,
      },
      (err: unknown, result) => {
        current = undefined;
        if (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        const statusCodes: Record<string, number> = {};
        for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
          statusCodes[code] = stats.count ?? 0;
        }
        resolve({
          label,
          url: load.url,
          method: load.method,
          requestsPerSecond: result.requests.average,
          latencyP50: result.latency.p50,
          latencyP99: result.latency.p99,
          bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
          total: result.requests.total,
          non2xx: result.non2xx,
          statusCodes,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
  });
}
