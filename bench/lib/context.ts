/**
 * What every part of the bench shares: where things are, the bench API's throwaway secrets, the demo
 * catalogue it seeds, and the one log line format.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import demo from "../../apps/api/src/demo-accounts.json" with { type: "json" };
import { sandboxWebhookSecret } from "./checkout.ts";

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const rootDir = path.resolve(benchDir, "..");
export const apiDir = path.join(rootDir, "apps", "api");
export const webDir = path.join(rootDir, "apps", "web");
export const docsFile = path.join(rootDir, "docs", "benchmarks.md");
export const resultsFile = path.join(benchDir, "results", "latest.json");

export const webHeaders = { "accept-language": "en" };

/** The demo catalogue's links, which the bench API seeds (fixed tokens, with files). */
export const demoLinkTokens = demo.catalogue.links.map((link) => link.token);
export const demoLinkToken = demoLinkTokens[0] ?? "";
/** The demo creator's public page handle (`/c/{id}` takes an id or a handle). */
export const demoCreatorHandle = demo.catalogue.profile.handle;
export const demoBlogSlug = "how-affiliate-attribution-works";
/** The seeded creator who owns the catalogue: the dashboard reads sign in as them. */
export const demoCreator = {
  email: demo.accounts.find((a) => a.label === demo.catalogue.owner)?.email ?? "",
  password: demo.password,
};

/** The bench API's APP_SECRET (throwaway): webhook events are signed with a key derived from it. */
export const appSecret = randomBytes(32).toString("hex");
export const webhookSecret = sandboxWebhookSecret(appSecret);
/** The bench API's DATABASE_POOL_SIZE: the API's default (apps/api/src/config.ts), set so none is inherited. */
export const apiPoolSize = 10;

export const count = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function log(message: string): void {
  console.log(`[bench] ${message}`);
}
