import { DrizzleQueryError } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "../../config.ts";
import { type JobRegistry, jobKind } from "../../jobs/index.ts";
import type { MailProvider } from "../../providers/mail/index.ts";
import { safeErrorMessage } from "../mail/jobs.ts";
import { renderMail } from "../mail/render.ts";
import * as q from "./queries.ts";
import { unsubscribeToken } from "./tokens.ts";

/**
 * One batch of an update's sending: the next UPDATES_BATCH_SIZE customers after the update's
 * cursor. Each batch queues the next, so memory holds one batch, whatever the audience's size.
 */
export const updateBatchJob = jobKind("updates.batch", z.object({ updateId: z.uuid() }));

/**
 * Everything a batch does (deliveries recorded, counts, the cursor, the next batch's job and, with
 * the outbox, the messages themselves) commits with the job's done mark or not at all: a batch that
 * crashed runs again from the same cursor, and the deliveries' primary key keeps anyone reached
 * from being sent to twice. With SMTP, a crash after the server accepted some messages resends
 * those on the retry (at least once, as for every mail), under the same Message-ID per update and
 * buyer, so clients that deduplicate fold the copies. A buyer who unsubscribed is skipped and
 * counted, never e-mailed.
 */
export function registerUpdateJobs(
  registry: JobRegistry,
  {
    config,
    mail,
  }: {
    config: Pick<Config, "appSecret" | "WEB_ORIGIN" | "API_PUBLIC_URL" | "UPDATES_BATCH_SIZE">;
    mail: MailProvider;
  },
): void {
  registry.register(updateBatchJob, async (tx, { updateId }, job) => {
    const update = await q.lockSendingUpdate(tx, updateId);
    if (!update) return;
    const limit = config.UPDATES_BATCH_SIZE;
    const batch = await q.audienceBatch(tx, {
      creatorId: update.creatorId,
      linkId: update.linkId,
      before: update.createdAt,
      after: update.cursor,
      limit,
    });
    const reached = await q.deliveredAmong(tx, { updateId, customerIds: batch.map((c) => c.id) });
    const deliveries: { updateId: string; customerId: string; status: q.DeliveryStatus }[] = [];
    const counts = { sent: 0, failed: 0, skipped: 0 };
    for (const customer of batch) {
      if (reached.has(customer.id)) continue;
      if (customer.unsubscribedAt) {
        deliveries.push({ updateId, customerId: customer.id, status: "skipped" });
        counts.skipped += 1;
        continue;
      }
      const token = unsubscribeToken(config.appSecret, customer.id);
      const rendered = renderMail("buyer-update", update.locale, {
        url: `${config.WEB_ORIGIN}/unsubscribe/${token}`,
        subject: update.subject,
        body: update.body,
        creator: update.senderName ?? "",
      });
      try {
        await mail.send(
          {
            to: customer.email,
            template: "buyer-update",
            locale: update.locale,
            // RFC 8058: mail clients offer "unsubscribe" and POST to the API's route themselves.
            headers: {
              "List-Unsubscribe": `<${config.API_PUBLIC_URL}/updates/unsubscribe/${token}>`,
              "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
            ...rendered,
          },
          { db: tx, idempotencyKey: `update-${updateId}-${customer.id}` },
        );
        deliveries.push({ updateId, customerId: customer.id, status: "sent" });
        counts.sent += 1;
      } catch (err) {
        // The database's own failure fails the batch (its transaction is gone), as does a provider
        // that is down or busy (no connection, a 4xx): the whole batch is retried later, and only
        // its last attempt records such failures. A permanent refusal of one message (a 5xx reply,
        // as for an address that does not exist) counts against that buyer only.
        if (err instanceof DrizzleQueryError) throw err;
        if (!refusedForGood(err) && job.attempts < job.maxAttempts) {
          throw new Error(`Sending an update's batch failed: ${safeErrorMessage(err)}`);
        }
        deliveries.push({ updateId, customerId: customer.id, status: "failed" });
        counts.failed += 1;
      }
    }
    await q.insertDeliveries(tx, deliveries);
    const finished = batch.length < limit;
    await q.advanceUpdate(tx, {
      id: updateId,
      ...counts,
      cursor: batch.at(-1)?.email ?? update.cursor,
      finished,
    });
    if (!finished) {
      await updateBatchJob.enqueue(
        tx,
        { updateId },
        { dedupeKey: `buyer-update:${updateId}:${update.batches + 1}` },
      );
    }
  });
}

/** An SMTP server's permanent refusal of this message (5xx), as nodemailer reports it. */
function refusedForGood(err: unknown): boolean {
  if (typeof err !== "object" || err === null || !("responseCode" in err)) return false;
  const code = Number(err.responseCode);
  return code >= 500 && code < 600;
}
