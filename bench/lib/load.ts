import autocannon from "autocannon";

export interface Measurement {
  label: string;
  url: string;
  /** The HTTP method; GET unless the endpoint says otherwise. */
  method?: string;
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

/** One request's variable parts, made when it is sent (a unique e-mail, a signature with the time of sending). */
export interface RequestParts {
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  url: string;
  /** GET when absent: the page and read scenarios. */
  method?: "GET" | "POST" | "PATCH";
  headers: Record<string, string>;
  /** A fixed body, for every request. */
  body?: string;
  /** Called for each request as it is about to be sent; its parts replace the fixed body and add headers. */
  request?: () => RequestParts;
  /** Called with each answer's status and body (e.g. to keep what the requests created). */
  onResponse?: (status: number, body: string) => void;
  connections: number;
  /** Seconds of load; ignored when `amount` is given. */
  duration: number;
  /** Send exactly this many requests instead of loading for `duration` seconds (a preparation phase). */
  amount?: number;
}

let current: autocannon.Instance | undefined;

/** Ends a measurement in progress (Ctrl-C), so the script can stop the servers without waiting for it. */
export function stopLoad(): void {
  current?.stop();
}

function dynamicRequests(options: LoadOptions): autocannon.Request[] | undefined {
  const { request, onResponse } = options;
  if (!request && !onResponse) return undefined;
  return [
    {
      ...(request
        ? {
            // autocannon calls this when it (re)builds the request, just before sending it.
            setupRequest: (req: autocannon.Request) => {
              const parts = request();
              return {
                ...req,
                headers: { ...req.headers, ...parts.headers },
                ...(parts.body === undefined ? {} : { body: parts.body }),
              };
            },
          }
        : {}),
      ...(onResponse ? { onResponse: (status: number, body: string) => onResponse(status, body) } : {}),
    },
  ];
}

function fire(options: LoadOptions): Promise<autocannon.Result> {
  const requests = dynamicRequests(options);
  return new Promise((resolve, reject) => {
    current = autocannon(
      {
        url: options.url,
        method: options.method ?? "GET",
        headers: options.headers,
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(requests ? { requests } : {}),
        connections: options.amount ? Math.min(options.connections, options.amount) : options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.duration }),
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

/** Load whose answers matter but whose rate does not: creating the data a scenario needs. */
export async function prepare(options: LoadOptions): Promise<autocannon.Result> {
  return fire(options);
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
    method: options.method ?? "GET",
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
