import type { Locale } from "@salelink/contracts";
import type { DbOrTx } from "../../db/client.ts";

/** A file sent with an e-mail (the receipt's invoice), rendered when the e-mail is sent, never stored in a job. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A rendered e-mail, ready to hand to a provider. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The template it was rendered from; the outbox keeps it so tests and developers can find a message. */
  template: string;
  locale: Locale;
  /** Headers of its own: an update's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

export interface SendOptions {
  /**
   * Where a provider that writes to the database writes: the job's transaction, so the stored
   * message commits together with the job's done mark (on PGlite, the pool would deadlock).
   */
  db?: DbOrTx;
  /**
   * Stable across retries of the same message (derived from the job id). SMTP has no real
   * idempotency, so it becomes the Message-ID: a retried message at least looks like the same one.
   */
  idempotencyKey?: string;
}

export interface MailProvider {
  readonly kind: "smtp" | "outbox";
  send(message: OutgoingMail, options?: SendOptions): Promise<{ messageId: string }>;
}
