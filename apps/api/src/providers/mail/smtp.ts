import nodemailer, { type Transporter } from "nodemailer";
import { fromDomain, type MailEnv } from "./env.ts";
import type { MailProvider, OutgoingMail, SendOptions } from "./types.ts";

/**
 * Well under the jobs' lease (5 minutes by default): a send stuck on a silent server must fail and
 * be retried by this worker, not outlive its lease and be sent a second time by another one.
 */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

export function smtpSettings(env: MailEnv): SmtpSettings {
  if (!env.SMTP_HOST) throw new Error("SMTP_HOST is required when MAIL_PROVIDER is smtp");
  return {
    host: env.SMTP_HOST,
    port: env.SMTP_PORT,
    secure: env.SMTP_SECURE,
    user: env.SMTP_USER,
    password: env.SMTP_PASSWORD,
    from: env.MAIL_FROM,
  };
}

/**
 * Sends through an SMTP relay. Delivery is at least once: when the server accepted the message
 * but the job's transaction then fails to commit (crash, lost lease), the job runs again and the
 * message goes out twice. The Message-ID derived from the job id lets mail clients and relays that
 * deduplicate on it fold the copies.
 */
export class SmtpMailProvider implements MailProvider {
  readonly kind = "smtp" as const;
  private readonly transport: Transporter;
  private readonly from: string;
  private readonly domain: string;

  constructor(settings: SmtpSettings) {
    this.from = settings.from;
    this.domain = fromDomain(settings.from) ?? "salelink.invalid";
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      auth: settings.user ? { user: settings.user, pass: settings.password ?? "" } : undefined,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: CONNECTION_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    });
  }

  async send(message: OutgoingMail, options: SendOptions = {}): Promise<{ messageId: string }> {
    const info = await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.headers ? { headers: message.headers } : {}),
      ...(message.attachments?.length
        ? {
            attachments: message.attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: a.content,
            })),
          }
        : {}),
      ...(options.idempotencyKey
        ? { messageId: `<${messageIdLocalPart(options.idempotencyKey)}@${this.domain}>` }
        : {}),
    });
    return { messageId: info.messageId };
  }
}

/** Message-ID's left side allows only "atext" and dots; anything else in the key becomes a dash. */
function messageIdLocalPart(key: string): string {
  return key.replace(/[^A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/g, "-").replace(/^\.+|\.+$/g, "");
}
