/**
 * Several kinds of traffic at once: one autocannon instance per kind (its own connections and request
 * sequence), all started together, each response's latency recorded and attributed to the request it
 * answers, so that latency percentiles come per kind and over everything.
 */
import autocannon from "autocannon";

export interface KindRequest {
  /** What the answers of this request are reported as (a purchase is a checkout then a webhook). */
  part: string;
  method: "GET" | "POST" | "PATCH";
  path: string;
  headers?: Record<string, string>;
  /** Made as the request is sent; `context` is per connection, cleared when its sequence restarts. */
  setup?: (
    context: Record<string, unknown>,
  ) => { body?: string; headers?: Record<string, string> } | undefined;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

export interface Kind {
  name: string;
  label: string;
  origin: string;
  connections: number;
  /** Sent in this order on each connection, one at a time, over and over. */
  sequence: KindRequest[];
}

export interface PartStats {
  part: string;
  ok: number;
  non2xx: number;
  /** Latencies in ms of the 2xx answers. */
  latencies: number[];
}

export interface KindRun {
  kind: string;
  seconds: number;
  parts: PartStats[];
  /** Connection errors and timeouts (no answer). */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** The parts of autocannon's client object (not in its types) used to tell which request was answered. */
function answeredPath(client: unknown): string | undefined {
  if (typeof client !== "object" || client === null || !("requestIterator" in client)) return undefined;
  const iterator = client.requestIterator;
  if (typeof iterator !== "object" || iterator === null || !("currentRequest" in iterator)) return undefined;
  const request = iterator.currentRequest;
  if (typeof request !== "object" || request === null || !("path" in request)) return undefined;
  return typeof request.path === "string" ? request.path : undefined;
}

const running = new Set<autocannon.Instance>();

/** Ends every load in progress (Ctrl-C, time budget). */
export function stopMixedLoad(): void {
  for (const instance of running) instance.stop();
}

function runKind(kind: Kind, seconds: number): Promise<KindRun> {
  const parts = new Map<string, PartStats>();
  const byPath = new Map<string, PartStats>();
  for (const request of kind.sequence) {
    const stats = parts.get(request.part) ?? { part: request.part, ok: 0, non2xx: 0, latencies: [] };
    parts.set(request.part, stats);
    byPath.set(`${request.method} ${request.path}`, stats);
  }
  const first = [...parts.values()][0];
  if (!first) throw new Error(`Kind ${kind.name} has no requests`);
  const methodOf = new Map(kind.sequence.map((r) => [r.path, r.method]));

  const requests: autocannon.Request[] = kind.sequence.map((r) => ({
    method: r.method,
    path: r.path,
    headers: r.headers ?? {},
    ...(r.setup
      ? {
          setupRequest: (req: autocannon.Request, context: object) => {
            const parts = r.setup?.(context as Record<string, unknown>);
            // A falsy answer restarts the connection's sequence (e.g. no order to pay after a failed checkout).
            if (!parts) return undefined as unknown as autocannon.Request;
            return {
              ...req,
              headers: { ...req.headers, ...parts.headers },
              ...(parts.body === undefined ? {} : { body: parts.body }),
            };
          },
        }
      : {}),
    ...(r.onResponse
      ? {
          onResponse: (status: number, body: string, context: object) =>
            r.onResponse?.(status, body, context as Record<string, unknown>),
        }
      : {}),
  }));

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: kind.origin,
        requests,
        connections: kind.connections,
        duration: seconds,
        pipelining: 1,
        timeout: 10,
      },
      (err: unknown, result) => {
        running.delete(instance);
        if (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        const statusCodes: Record<string, number> = {};
        for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
          statusCodes[code] = stats.count ?? 0;
        }
        resolve({
          kind: kind.name,
          seconds: result.duration,
          parts: [...parts.values()],
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes,
        });
      },
    );
    running.add(instance);
    instance.on("response", (client, statusCode, _bytes, responseTime) => {
      const path = answeredPath(client);
      const stats = (path && byPath.get(`${methodOf.get(path)} ${path}`)) || first;
      if (statusCode >= 200 && statusCode < 300) {
        stats.ok += 1;
        stats.latencies.push(responseTime);
      } else {
        stats.non2xx += 1;
      }
    });
  });
}

/** Every kind at once for `seconds`; resolves when all have ended. */
export function runKinds(kinds: Kind[], seconds: number): Promise<KindRun[]> {
  return Promise.all(kinds.map((kind) => runKind(kind, seconds)));
}

/** The q-quantile (0..1) of latencies, nearest-rank; undefined without samples. */
export function quantile(values: number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = Float64Array.from(values).sort();
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}
