import type { Db } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/mail.ts";
import type { MailProvider, OutgoingMail, SendOptions } from "./types.ts";

/**
 * The sandbox provider and the default: stores each message in mail_outbox and sends nothing.
 * Written through the job's transaction, a message is stored exactly once, together with the job's
 * done mark.
 */
export class OutboxMailProvider implements MailProvider {
  readonly kind = "outbox" as const;

  constructor(private readonly db: Db) {}

  async send(message: OutgoingMail, options: SendOptions = {}): Promise<{ messageId: string }> {
    const [row] = await (options.db ?? this.db)
      .insert(mailOutbox)
      .values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        template: message.template,
        locale: message.locale,
        headers: message.headers ?? null,
        // What was attached, not the bytes: the dev mail page and tests see the file was there.
        attachments: message.attachments?.length
          ? message.attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              sizeBytes: a.content.length,
            }))
          : null,
      })
      .returning({ id: mailOutbox.id });
    if (!row) throw new Error("The outbox did not store the message");
    return { messageId: row.id };
  }
}
