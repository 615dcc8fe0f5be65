/*
 * The pages that stay open to everyone while maintenance is on (decision 022). The one list read by
 * the web server's gate (apps/web/server/maintenance-gate.ts), which enforces it, and by the browser's
 * guard (features/shell/maintenance-guard.tsx), which applies it to in-app navigation. Zod-free: the
 * web server bundles it and the guard loads it lazily with the status schema.
 *
 * - /maintenance itself;
 * - /signin, whose second step (the 2FA code) is on the same page: a signed-out admin must reach the
 *   console that switches maintenance off; a non-admin who signs in is then sent to /maintenance;
 * - a payment under way: the payment page, its success and error pages and the order page, under both
 *   prefixes. The API keeps taking the provider's webhooks and answering reads during maintenance,
 *   so a buyer who is paying sees the outcome and gets what they bought.
 *
 * Paths are the public ones (no locale prefix, decision 003), without the query string.
 */
const exempt =
  /^\/(?:maintenance|signin|payment\/(?:success|error)|checkout\/[^/]+|order\/[^/]+|app\/payment\/[^/]+|app\/links\/order\/[^/]+)\/?$/;

/** Whether `pathname` is served to everyone during maintenance. */
export function isMaintenanceExempt(pathname: string): boolean {
  return exempt.test(pathname);
}
