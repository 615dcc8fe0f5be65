import { z } from "zod";

export const healthResponseSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "down"]),
  uptimeSeconds: z.number(),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** One readiness check: "skipped" when the instance does not use that dependency (no REDIS_URL). */
export const readinessCheckSchema = z.enum(["ok", "failed", "skipped"]);

/**
 * `GET /health/ready`, for load balancers and orchestrators: 200 when this instance can serve
 * (database answers, its migrations are applied, Redis answers, not shutting down), 503 otherwise.
 * It names the failed check only, never a host, address or error text.
 */
export const readinessResponseSchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  checks: z.object({
    database: readinessCheckSchema,
    migrations: readinessCheckSchema,
    redis: readinessCheckSchema,
    /** "failed" once the process received SIGTERM/SIGINT and is draining. */
    accepting: readinessCheckSchema,
  }),
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;
