export * from "./accounts.ts";
export * from "./catalogue.ts";
export * from "./jobs.ts";
export * from "./ledger.ts";
export * from "./mail.ts";
export * from "./maintenance.ts";
export * from "./orders.ts";
export * from "./users.ts";
