import type { Db } from "../../../db/client.ts";
import { TtlCache } from "../../../lib/ttl-cache.ts";
import { activeCampaignIdByToken } from "./queries.ts";

/**
 * Campaign token → id of an active campaign (null: unknown or archived), held `ttlMs` in memory, so
 * a campaign going viral costs one query per TTL rather than one per click. Unknown tokens are
 * remembered too (a flood of one bad token stays off the database). Archiving a campaign stops its
 * counting within the TTL.
 */
export class CampaignTokens {
  private readonly cache: TtlCache<string | null>;

  constructor(
    private readonly db: Db,
    options: { ttlMs: number; maxEntries: number },
  ) {
    this.cache = new TtlCache({ ttlMs: options.ttlMs, maxEntries: options.maxEntries });
  }

  resolve(token: string): Promise<string | null> {
    return this.cache.get(token, () => activeCampaignIdByToken(this.db, { token }));
  }
}
