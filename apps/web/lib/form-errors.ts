import type { z } from "zod";
import { ApiError } from "./api.ts";

export type FieldErrors = Record<string, string>;

/** The first message per field from the API's `errors` (dotted paths kept as keys). */
export function apiFieldErrors(err: unknown): FieldErrors {
  if (!(err instanceof ApiError) || !err.body?.errors) return {};
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(err.body.errors)) if (messages[0]) out[key] = messages[0];
  return out;
}

/** Client-side check with the shared contract: field → translated message key per issue code. */
export function zodFieldErrors(
  error: z.ZodError,
  message: (field: string, code: string) => string,
): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".");
    out[key] ??= message(key, issue.code);
  }
  return out;
}
