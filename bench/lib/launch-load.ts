/**
 * The launch scenario's load: one endpoint's requests spread over one or more API instances (its
 * connections split between them), for a fixed number of requests, for a time, or until another load
 * ends; every answer's latency kept, so percentiles over several instances are exact.
 */
import autocannon from "autocannon";
import type { RequestParts } from "./load.ts";
import { quantile } from "./mixed-load.ts";

export interface LaunchLoad {
  label: string;
  /** The servers sharing the load, e.g. two API instances. */
  origins: string[];
  path: string;
  /** Several GETs sent in turn on each connection (the dashboard's reads), instead of `path` alone. */
  sequence?: string[];
  method: "GET" | "POST" | "PATCH";
  headers: Record<string, string>;
  connections: number;
  /** Each request's body and headers, made as it is sent; `context` is its connection's. */
  request?: (context: Record<string, unknown>) => RequestParts;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

export interface LoadRun {
  label: string;
  connections: number;
  seconds: number;
  /** 2xx answers. */
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts: requests without an answer. */
  errors: number;
  timeouts: number;
  /** 2xx answers a second over the run. */
  rate: number;
  p50?: number;
  p99?: number;
  statusCodes: Record<string, number>;
  /** The first answer's body (cut short) of each non-2xx status: why requests were refused. */
  refusals: Record<string, string>;
}

const running = new Set<autocannon.Instance>();

/** Ends every launch load in progress (Ctrl-C, time budget). */
export function stopLaunchLoad(): void {
  for (const instance of running) instance.stop();
}

interface Until {
  /** Send exactly this many requests in all. */
  amount?: number;
  /** Or load for this many seconds (the upper bound when `until` is given). */
  seconds?: number;
  /** Stop when this settles (another load ended). */
  until?: Promise<unknown>;
}

/** Splits `total` into `parts` integers differing by at most one. */
function split(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

function one(
  load: LaunchLoad,
  origin: string,
  connections: number,
  how: Until,
  latencies: number[],
  refusals: Record<string, string>,
): Promise<autocannon.Result> {
  const { request, onResponse } = load;
  // Every answer's status and body: the first refusal of each status is kept, to say why.
  const answered = (status: number, body: string, context: object) => {
    if ((status < 200 || status >= 300) && refusals[status] === undefined) {
      refusals[status] = body.slice(0, 200);
    }
    onResponse?.(status, body, context as Record<string, unknown>);
  };
  const requests: autocannon.Request[] = load.sequence?.map((p) => ({
    method: "GET",
    path: p,
    onResponse: answered,
  })) ?? [
    {
      ...(request
        ? {
            setupRequest: (req: autocannon.Request, context: object) => {
              const parts = request(context as Record<string, unknown>);
              return {
                ...req,
                headers: { ...req.headers, ...parts.headers },
                ...(parts.body === undefined ? {} : { body: parts.body }),
              };
            },
          }
        : {}),
      onResponse: answered,
    },
  ];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${origin}${load.path}`,
        method: load.method,
        headers: load.headers,
        requests,
        connections: how.amount === undefined ? connections : Math.max(1, Math.min(connections, how.amount)),
        ...(how.amount === undefined ? { duration: how.seconds ?? 10 } : { amount: how.amount }),
        pipelining: 1,
        timeout: 10,
      },
      (err: unknown, result) => {
        running.delete(instance);
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve(result);
      },
    );
    running.add(instance);
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
    const stop = () => instance.stop();
    how.until?.then(stop, stop);
  });
}

/** Runs `load` over its origins (connections and, for a fixed amount, requests split evenly). */
export async function runLoad(load: LaunchLoad, how: Until): Promise<LoadRun> {
  const n = load.origins.length;
  const connections = split(load.connections, n);
  const amounts = how.amount === undefined ? undefined : split(how.amount, n);
  const latencies: number[] = [];
  const refusals: Record<string, string> = {};
  const started = performance.now();
  const results = await Promise.all(
    load.origins.map((origin, i) =>
      amounts?.[i] === 0
        ? undefined
        : one(
            load,
            origin,
            Math.max(1, connections[i] ?? 1),
            { ...how, ...(amounts ? { amount: amounts[i] } : {}) },
            latencies,
            refusals,
          ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const statusCodes: Record<string, number> = {};
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  for (const result of results) {
    if (!result) continue;
    non2xx += result.non2xx;
    errors += result.errors;
    timeouts += result.timeouts;
    for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
      statusCodes[code] = (statusCodes[code] ?? 0) + (stats.count ?? 0);
    }
  }
  const p50 = quantile(latencies, 0.5);
  const p99 = quantile(latencies, 0.99);
  return {
    label: load.label,
    connections: load.connections,
    seconds,
    ok: latencies.length,
    non2xx,
    errors,
    timeouts,
    rate: seconds > 0 ? latencies.length / seconds : 0,
    ...(p50 === undefined ? {} : { p50 }),
    ...(p99 === undefined ? {} : { p99 }),
    statusCodes,
    refusals,
  };
}

/** A load's warm-up (thrown away) then its measurement, both for a time. */
export async function warmThenMeasure(load: LaunchLoad, warmup: number, seconds: number): Promise<LoadRun> {
  if (warmup > 0) await runLoad(load, { seconds: warmup });
  return runLoad(load, { seconds });
}

const ms = (v: number | undefined) => (v === undefined ? "—" : v.toFixed(1));

/** One line for the log: rate, latencies and what went wrong. */
export function describeRun(run: LoadRun): string {
  const codes = Object.entries(run.statusCodes)
    .map(([code, n]) => `${n}×${code}`)
    .join(", ");
  const why = Object.entries(run.refusals)
    .map(([code, body]) => `; ${code}: ${body}`)
    .join("");
  return `${run.label} (${run.connections} conn.): ${Math.round(run.rate)} 2xx/s over ${run.seconds.toFixed(1)} s, p50 ${ms(run.p50)} ms, p99 ${ms(run.p99)} ms, non-2xx ${run.non2xx}, errors ${run.errors} (${codes || "no answers"})${why}`;
}
