import { z } from "zod";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { type JobRegistry, jobKind } from "../../jobs/index.ts";

/*
 * The web app caches the buyer pages (`/v/{token}`, `/c/{id}`) and tags each cached API read:
 * `link:<token>` and `creator:<id or handle>`. An edit queues one job, in the edit's transaction,
 * that asks the web app to drop those tags, so the next visitor gets the new page. Without
 * WEB_REVALIDATE_URL nothing is queued and the pages refresh on their own timer.
 */

const tagSchema = z.string().regex(/^(link|creator):[A-Za-z0-9_-]{1,64}$/);
export const revalidateJob = jobKind(
  "web.revalidate",
  z.object({ tags: z.array(tagSchema).min(1).max(500) }),
);

export const linkTag = (token: string) => `link:${token}`;
export const creatorTags = (profile: { id: string; handle?: string | null }) => [
  `creator:${profile.id}`,
  ...(profile.handle ? [`creator:${profile.handle.toLowerCase()}`] : []),
];

/** Queues a refresh of these tags in the caller's transaction; a no-op when the web app is not wired. */
export async function queueRevalidate(tx: DbOrTx, config: Config, tags: Iterable<string>): Promise<void> {
  if (!config.WEB_REVALIDATE_URL) return;
  const unique = [...new Set(tags)];
  if (unique.length === 0) return;
  await revalidateJob.enqueue(tx, { tags: unique }, { maxAttempts: 5 });
}

const MINUTE_MS = 60_000;

/**
 * Queues refreshes of these tags until a given time: a page whose text changes with the clock (all
 * units reserved, "back in N minutes", rendered without a script) is refreshed each minute and when
 * the reservation ends, not at its timer. One job per tag set and minute, whoever asks.
 */
export async function queueRevalidateUntil(
  tx: DbOrTx,
  config: Config,
  tags: Iterable<string>,
  until: Date,
): Promise<void> {
  if (!config.WEB_REVALIDATE_URL) return;
  const unique = [...new Set(tags)].sort();
  if (unique.length === 0) return;
  const key = `revalidate:${unique.join(",")}`;
  const runs: { runAt: Date; dedupeKey: string }[] = [];
  for (let t = Date.now() + MINUTE_MS; t < until.getTime(); t += MINUTE_MS) {
    runs.push({ runAt: new Date(t), dedupeKey: `${key}@${Math.floor(t / MINUTE_MS)}` });
  }
  // A second late, so the reservation has ended when the page asks again; never folded into another.
  runs.push({ runAt: new Date(until.getTime() + 1000), dedupeKey: `${key}@end:${until.getTime()}` });
  for (const run of runs) await revalidateJob.enqueue(tx, { tags: unique }, { maxAttempts: 5, ...run });
}

const TIMEOUT_MS = 5000;

export function registerRevalidateJobs(registry: JobRegistry, { config }: { config: Config }): void {
  registry.register(revalidateJob, async (_tx, payload) => {
    const url = config.WEB_REVALIDATE_URL;
    if (!url) return;
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${config.WEB_REVALIDATE_SECRET ?? ""}`,
      },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // A failure is retried with backoff; the pages still refresh on their timer meanwhile.
    if (!res.ok) throw new Error(`The web app answered ${res.status} to a cache refresh`);
  });
}
