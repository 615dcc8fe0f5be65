import { DrizzleQueryError } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { type EnqueueOptions, type JobRegistry, jobKind } from "../../jobs/index.ts";
import type { MailAttachment, MailProvider } from "../../providers/mail/index.ts";
import { dropJobParams } from "./queries.ts";
import { renderMail } from "./render.ts";
import { type MailJobPayload, mailJobPayloadSchema } from "./templates.ts";

/** Renders and sends one e-mail; enqueue it with queueMail. */
export const mailSendJob = jobKind("mail.send", mailJobPayloadSchema);

/**
 * Queues an e-mail in the caller's transaction: the token a link carries and the e-mail that
 * delivers it commit together, or neither does. Poke the worker after the commit for a prompt send.
 * `dedupeKey` makes the call idempotent, for good: one e-mail per key, ever (e.g. "verify:<token id>").
 * Answers the job's id, or null when the key was already used.
 */
export function queueMail(
  tx: DbOrTx,
  mail: MailJobPayload,
  options: Pick<EnqueueOptions, "dedupeKey" | "runAt"> = {},
): Promise<string | null> {
  return mailSendJob.enqueue(tx, mail, options);
}

/**
 * With the outbox, the stored message commits with the job's done mark: exactly once. With SMTP,
 * delivery is at least once: should the transaction fail after the server accepted the message
 * (crash, lost lease, database error), the job runs again and sends it again, under the same
 * Message-ID (from the job id) so clients that deduplicate fold the copies.
 */
export function registerMailJobs(
  registry: JobRegistry,
  {
    mail: provider,
    attachments,
  }: {
    mail: MailProvider;
    /** The files an e-mail carries (the receipt's invoice), rendered now: a job's payload names them only. */
    attachments?: (tx: DbOrTx, payload: MailJobPayload) => Promise<MailAttachment[]>;
  },
): void {
  registry.register(mailSendJob, async (tx, payload, job) => {
    const rendered = renderMail(payload.template, payload.locale, payload.params);
    const files = attachments ? await attachments(tx, payload) : [];
    try {
      await provider.send(
        {
          to: payload.to,
          template: payload.template,
          locale: payload.locale,
          ...rendered,
          ...(files.length > 0 ? { attachments: files } : {}),
        },
        { db: tx, idempotencyKey: `mail-${job.id}` },
      );
    } catch (err) {
      throw new Error(`Sending through ${provider.kind} failed: ${safeErrorMessage(err)}`);
    }
    // The params hold live links (a reset token); once sent, the done row keeps only who, what and
    // in which language. A failure rolls this back with the rest, so a retry still has them.
    await dropJobParams(tx, job.id);
  });
}

/**
 * The worker stores a failure's message in jobs.last_error and logs it. A drizzle error's message
 * lists the query's parameters (the whole e-mail, link included) and an SMTP server's reply often
 * quotes the recipient: keep the cause, drop addresses and links.
 */
export function safeErrorMessage(err: unknown): string {
  const cause = err instanceof DrizzleQueryError ? (err.cause ?? err) : err;
  const message = cause instanceof Error ? cause.message || cause.name : String(cause);
  return message
    .replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, "[address]")
    .replace(/\bhttps?:\/\/[^\s<>"']+/g, "[link]");
}
