export * from "./auth.ts";
export * from "./business-rules.ts";
export * from "./countries.ts";
export * from "./errors.ts";
export * from "./health.ts";
export * from "./locales.ts";
export * from "./maintenance.ts";
export * from "./profile.ts";
