import autocannon from "autocannon";

export interface Measurement {
  label: string;
  url: string;
  /** Mean of the per-second request counts. */
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  /** Mean response size including headers, to show that a target and its baseline weigh the same. */
  bytesPerResponse: number;
  total: number;
  non2xx: number;
  /** Count per status code, kept to explain an invalid measurement. */
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  duration: number;
}

let current: autocannon.Instance | undefined;

/** Ends a measurement in progress (Ctrl-C), so the script can stop the servers without waiting for it. */
export function stopLoad(): void {
  current?.stop();
}

function fire(options: LoadOptions): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    current = autocannon(
      {
        url: options.url,
        method: "GET",
        headers: options.headers,
        connections: options.connections,
        duration: options.duration,
        // One request at a time per connection, like browsers and reverse proxies.
        pipelining: 1,
        timeout: 10,
      },
      (err: unknown, result) => {
        current = undefined;
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve(result);
      },
    );
  });
}

/** Load that is thrown away: lets the JIT, connection pools and the servers' caches settle. */
export async function warmUp(options: LoadOptions): Promise<void> {
  if (options.duration > 0) await fire(options);
}

export async function measure(label: string, options: LoadOptions): Promise<Measurement> {
  const result = await fire(options);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = stats.count ?? 0;
  }
  return {
    label,
    url: options.url,
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    total: result.requests.total,
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** A rate is only meaningful if every request succeeded. */
export function isValid(m: Measurement): boolean {
  return m.non2xx === 0 && m.errors === 0 && m.total > 0;
}
