import { ApiError } from "@/lib/api.ts";

/** What to tell the operator when an action failed: the API's own words for a refusal, else `fallback`. */
export const failureMessage = (err: unknown, fallback: string): string =>
  err instanceof ApiError && err.body && err.status < 500 ? err.body.message : fallback;

/** A date (and time) in the page's language. */
export const formatDate = (iso: string, locale: string, withTime = true): string =>
  new Intl.DateTimeFormat(
    locale,
    withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" },
  ).format(new Date(iso));
