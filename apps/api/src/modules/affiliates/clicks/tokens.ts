import type { Db, DbOrTx } from "../../../db/client.ts";
import { activeCampaignIdByToken } from "./queries.ts";

/** The id a click's token counts for (null: unknown, archived, removed). */
export type TokenLookup = (db: DbOrTx, params: { token: string }) => Promise<string | null>;

/**
 * Campaign token → id of an active campaign (null: unknown or archived), held `ttlMs` in memory, so
 * a campaign going viral costs one query per TTL rather than one per click. Unknown tokens are
 * remembered too (a flood of one bad token stays off the database); a failed query is not. Archiving
 * a campaign stops its counting within the TTL. Known answers are read without a promise (`peek`):
 * the click route answers a cached token within the same turn of the event loop (decision 033).
 * Partner codes resolve to active memberships the same way, with their own `lookup`.
 */
export class CampaignTokens {
  private readonly known = new Map<string, { id: string | null; expires: number }>();
  /** Loads in flight: concurrent misses of one token share one query. */
  private readonly loading = new Map<string, Promise<string | null>>();

  constructor(
    private readonly db: Db,
    private readonly options: { ttlMs: number; maxEntries: number; now?: () => number; lookup?: TokenLookup },
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The campaign's id (or null) when known and fresh; undefined when it has to be loaded. */
  peek(token: string): string | null | undefined {
    const hit = this.known.get(token);
    if (hit === undefined) return undefined;
    if (hit.expires > this.now()) return hit.id;
    this.known.delete(token);
    return undefined;
  }

  resolve(token: string): Promise<string | null> {
    const id = this.peek(token);
    if (id !== undefined) return Promise.resolve(id);
    const pending = this.loading.get(token);
    if (pending) return pending;
    // The TTL counts from the query, not from its answer, as a cache of what the query saw.
    const expires = this.now() + this.options.ttlMs;
    const load = (this.options.lookup ?? activeCampaignIdByToken)(this.db, { token })
      .then((found) => {
        if (this.options.ttlMs > 0) this.remember(token, found, expires);
        return found;
      })
      .finally(() => this.loading.delete(token));
    this.loading.set(token, load);
    return load;
  }

  private remember(token: string, id: string | null, expires: number): void {
    if (this.known.size >= this.options.maxEntries && !this.known.has(token)) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
    this.known.set(token, { id, expires });
  }
}
