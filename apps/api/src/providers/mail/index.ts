import type { Db } from "../../db/client.ts";
import type { MailEnv } from "./env.ts";
import { OutboxMailProvider } from "./outbox.ts";
import { SmtpMailProvider, smtpSettings } from "./smtp.ts";
import type { MailProvider } from "./types.ts";

export { fromDomain, type MailEnv, mailEnvSchema } from "./env.ts";
export { OutboxMailProvider } from "./outbox.ts";
export { SmtpMailProvider, type SmtpSettings, smtpSettings } from "./smtp.ts";
export type { MailAttachment, MailProvider, OutgoingMail, SendOptions } from "./types.ts";

/** The provider MAIL_PROVIDER names; the outbox writes to `db` unless a send passes its transaction. */
export function createMailProvider(env: MailEnv, db: Db): MailProvider {
  return env.MAIL_PROVIDER === "smtp" ? new SmtpMailProvider(smtpSettings(env)) : new OutboxMailProvider(db);
}
