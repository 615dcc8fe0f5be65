import type { ErrorResponse } from "@salelink/contracts/errors";
import type { z } from "zod";
import { runtimeConfig } from "./runtime-config.ts";

/** A failed call, carrying the API's error format when it answered one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorResponse | null,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
  }
  get exception(): ErrorResponse["error"] | undefined {
    return this.body?.error;
  }
}

interface CallOptions<T extends z.ZodType> {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /**
   * The answer's contract, or a loader of it: code on every page's first load (the shell) passes
   * `() => import(…)` so that zod and the schemas load after the page, not before it.
   */
  schema: T | (() => Promise<T>);
  signal?: AbortSignal;
  /** Server-side calls pass the API URL and the visitor's cookie themselves. */
  baseUrl?: string;
  headers?: Record<string, string>;
}

/**
 * The one typed client of the API base: sends credentials, validates the answer with the shared
 * contract, and throws ApiError with the API's error format on failure.
 */
export async function api<T extends z.ZodType>(path: string, options: CallOptions<T>): Promise<z.infer<T>> {
  const baseUrl = options.baseUrl ?? (await runtimeConfig()).apiUrl;
  const headers: Record<string, string> = { ...options.headers };
  // The API answers messages in the page's language (the language cookie may not reach its host).
  if (typeof document !== "undefined" && document.documentElement.lang) {
    headers["x-locale"] = document.documentElement.lang;
  }
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? "GET",
    credentials: "include",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
    cache: "no-store",
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    // Should the schema's chunk fail to load, the status alone still tells callers what happened.
    const contract = await import("@salelink/contracts/errors").catch(() => null);
    const parsed = contract?.errorResponseSchema.safeParse(json);
    throw new ApiError(res.status, parsed?.success ? parsed.data : null);
  }
  const schema = typeof options.schema === "function" ? await options.schema() : options.schema;
  return schema.parse(json);
}
