export { Metrics, type MetricsOptions } from "./metrics.ts";
export { metricsPlugin } from "./plugin.ts";
export { type MetricsServer, startMetricsServer } from "./server.ts";
