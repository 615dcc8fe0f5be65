import type { CreatorPage, PublicLink } from "@salelink/contracts";
import type { Config } from "../../../config.ts";
import { AppError } from "../../../lib/errors.ts";
import { TtlCache } from "../../../lib/ttl-cache.ts";

/** This instance's memory of public reads, keyed by the same tags as the web app's page cache. */
export interface PublicCache {
  links: TtlCache<PublicLink>;
  creators: TtlCache<CreatorPage>;
}

/** A "not found" is remembered too, so a flood of bad tokens or handles stays off the database. */
export function createPublicCache(config: Config): PublicCache {
  const options = {
    ttlMs: config.PUBLIC_READ_CACHE_MS,
    maxEntries: 10_000,
    cacheFailure: (error: unknown) => error instanceof AppError && error.exception === "NotFoundException",
  };
  return { links: new TtlCache(options), creators: new TtlCache(options) };
}
