import type { Locale, NotificationSettings } from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { jobKind } from "../../jobs/index.ts";
import { AppError } from "../../lib/errors.ts";
import { queueMail } from "../mail/jobs.ts";
import * as q from "./queries.ts";

/*
 * A creator's sale e-mails (issue 21). The payment path never sends one: it queues a job row per
 * creator and window (SALE_NOTIFY_COALESCE_SECONDS), deduplicated by the jobs table's key, so a
 * launch's 10,000 sales in a few minutes cost one insert each that does nothing after the first of
 * its window, and the creator gets one e-mail per window. The job runs once the window is over and
 * reads the creator's choice then: "each" gets the e-mail, "digest" and "off" nothing. Creators on
 * "digest" get one e-mail a day at SALES_DIGEST_HOUR_UTC with the last 24 hours' sales instead.
 */

export type NotificationConfig = Pick<
  Config,
  "SALE_NOTIFY_COALESCE_SECONDS" | "SALES_DIGEST_HOUR_UTC" | "WEB_ORIGIN" | "JOBS_ENABLED"
>;

/** Sales a grouped e-mail lists by name; the rest are counted. */
export const SALES_LISTED = 5;
/** Links a digest lists, most sold first. */
export const DIGEST_LINKS_LISTED = 5;
/**
 * How long after its window a notification job waits: a payment's time is the provider's (the
 * event's), and its transaction may commit a moment after the window it belongs to has ended.
 */
export const SALE_NOTIFY_SETTLE_MS = 10_000;
const DAY_MS = 86_400_000;

export async function notificationSettingsOf(db: DbOrTx, userId: string): Promise<NotificationSettings> {
  const mode = await q.saleNotificationsOf(db, userId);
  if (mode === null) throw new AppError("NotFoundException", "Account not found.");
  return { saleNotifications: mode };
}

export async function saveNotificationSettings(
  db: DbOrTx,
  config: NotificationConfig,
  userId: string,
  settings: NotificationSettings,
): Promise<NotificationSettings> {
  await q.setSaleNotifications(db, { userId, mode: settings.saleNotifications });
  // The daily run is a chain that each run extends; choosing the digest makes sure it exists.
  if (settings.saleNotifications === "digest" && config.JOBS_ENABLED) await scheduleSalesDigest(db, config);
  return notificationSettingsOf(db, userId);
}

// ---------------------------------------------------------------------------------------------
// One e-mail per creator and window

export const saleNotificationJob = jobKind(
  "notifications.sale",
  z.object({ creatorId: z.uuid(), from: z.iso.datetime(), to: z.iso.datetime() }),
);

export interface PaidSale {
  creatorId: string;
  paidAt: Date;
}

/** The job row that notifies a sale: its creator's window, due once the window is over. */
export function saleNotificationRow(config: Pick<Config, "SALE_NOTIFY_COALESCE_SECONDS">, sale: PaidSale) {
  const windowMs = config.SALE_NOTIFY_COALESCE_SECONDS * 1000;
  const bucket = Math.floor(sale.paidAt.getTime() / windowMs);
  const from = new Date(bucket * windowMs);
  const to = new Date((bucket + 1) * windowMs);
  const payload = { creatorId: sale.creatorId, from: from.toISOString(), to: to.toISOString() };
  saleNotificationJob.schema.parse(payload);
  return {
    kind: saleNotificationJob.kind,
    payload,
    runAt: new Date(to.getTime() + SALE_NOTIFY_SETTLE_MS),
    dedupeKey: `sale-notify:${sale.creatorId}:${bucket}@${config.SALE_NOTIFY_COALESCE_SECONDS}`,
  };
}

/** For a batch of payments (one insert of job rows): one row per creator and window. */
export function saleNotificationRows(
  config: Pick<Config, "SALE_NOTIFY_COALESCE_SECONDS">,
  sales: PaidSale[],
): ReturnType<typeof saleNotificationRow>[] {
  const rows = new Map<string, ReturnType<typeof saleNotificationRow>>();
  for (const sale of sales) {
    const row = saleNotificationRow(config, sale);
    if (!rows.has(row.dedupeKey)) rows.set(row.dedupeKey, row);
  }
  return [...rows.values()];
}

/** For a payment applied on its own, in its transaction: a no-op when its window's job is queued. */
export async function queueSaleNotification(
  tx: DbOrTx,
  config: Pick<Config, "SALE_NOTIFY_COALESCE_SECONDS">,
  sale: PaidSale,
): Promise<void> {
  const { payload, runAt, dedupeKey } = saleNotificationRow(config, sale);
  await saleNotificationJob.enqueue(tx, payload, { runAt, dedupeKey });
}

const money = (minor: number, currency: string, locale: Locale) => formatMoney(minor, currency, locale);

/** "€20.00 and $5.00": one total per currency, in the reader's language. */
function totalsText(totals: { currency: string; totalMinor: number }[], locale: Locale): string {
  return new Intl.ListFormat(locale, { type: "conjunction" }).format(
    totals.map((t) => money(t.totalMinor, t.currency, locale)),
  );
}

const links = (config: Pick<Config, "WEB_ORIGIN">) => ({
  url: `${config.WEB_ORIGIN}/account/wallet`,
  settingsUrl: `${config.WEB_ORIGIN}/account/settings`,
});

/** The job: the window's sales in one e-mail, when the creator still wants e-mails per sale. */
export async function sendSaleNotification(
  tx: Tx,
  config: Pick<Config, "WEB_ORIGIN">,
  payload: z.output<typeof saleNotificationJob.schema>,
): Promise<void> {
  const recipient = await q.notificationRecipient(tx, payload.creatorId);
  if (recipient?.mode !== "each") return;
  const window = { creatorId: payload.creatorId, from: new Date(payload.from), to: new Date(payload.to) };
  const totals = await q.salesTotalsIn(tx, window);
  const count = totals.reduce((n, t) => n + t.sales, 0);
  if (count === 0) return;
  const [first, ...others] = (await q.firstSalesIn(tx, { ...window, limit: SALES_LISTED })).map((s) => ({
    title: s.title,
    amount: money(s.totalMinor, s.currency, recipient.locale),
  }));
  if (!first) return;
  await queueMail(
    tx,
    {
      to: recipient.email,
      locale: recipient.locale,
      template: "sale-notification",
      params: {
        count,
        ...first,
        others,
        totals: totalsText(totals, recipient.locale),
        ...links(config),
      },
    },
    { dedupeKey: `sale-mail:${payload.creatorId}:${payload.from}:${payload.to}` },
  );
}

// ---------------------------------------------------------------------------------------------
// The daily digest

/** One run a day for every creator on "digest"; each run queues the next day's. */
export const salesDigestJob = jobKind("notifications.sales-digest", z.object({ at: z.iso.datetime() }));

/** The next digest time strictly after `now`: today's hour if still ahead, else tomorrow's. */
export function nextDigestAt(config: Pick<Config, "SALES_DIGEST_HOUR_UTC">, now: Date): Date {
  const today = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth(),
    now.getUTCDate(),
    config.SALES_DIGEST_HOUR_UTC,
  );
  return new Date(today > now.getTime() ? today : today + DAY_MS);
}

/**
 * Queues the next daily run, once per day whoever asks (the key is the day): every API instance
 * calls it at start and each run calls it for the next day, so one chain exists however many run.
 */
export async function scheduleSalesDigest(
  db: DbOrTx,
  config: Pick<Config, "SALES_DIGEST_HOUR_UTC">,
  now = new Date(),
): Promise<void> {
  const at = nextDigestAt(config, now);
  await salesDigestJob.enqueue(
    db,
    { at: at.toISOString() },
    { runAt: at, dedupeKey: `sales-digest@${at.toISOString().slice(0, 10)}` },
  );
}

interface DigestOf {
  email: string;
  locale: Locale;
  count: number;
  totals: Map<string, number>;
  links: Map<string, { title: string; sales: number; totals: Map<string, number> }>;
}

const add = (totals: Map<string, number>, currency: string, minor: number) =>
  totals.set(currency, (totals.get(currency) ?? 0) + minor);
const sortedTotals = (totals: Map<string, number>) =>
  [...totals]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, totalMinor]) => ({ currency, totalMinor }));

/** The job: the last 24 hours' sales up to `at`, one e-mail per creator on "digest" who sold. */
export async function sendSalesDigests(
  tx: Tx,
  config: Pick<Config, "WEB_ORIGIN" | "SALES_DIGEST_HOUR_UTC">,
  payload: z.output<typeof salesDigestJob.schema>,
): Promise<number> {
  const to = new Date(payload.at);
  const rows = await q.digestSales(tx, { from: new Date(to.getTime() - DAY_MS), to });
  const creators = new Map<string, DigestOf>();
  for (const row of rows) {
    let digest = creators.get(row.creatorId);
    if (!digest) {
      digest = { email: row.email, locale: row.locale, count: 0, totals: new Map(), links: new Map() };
      creators.set(row.creatorId, digest);
    }
    digest.count += row.sales;
    add(digest.totals, row.currency, row.totalMinor);
    const link = digest.links.get(row.linkId) ?? { title: row.title, sales: 0, totals: new Map() };
    link.sales += row.sales;
    add(link.totals, row.currency, row.totalMinor);
    digest.links.set(row.linkId, link);
  }
  const day = payload.at.slice(0, 10);
  for (const [creatorId, digest] of creators) {
    const top = [...digest.links.values()]
      .sort((a, b) => b.sales - a.sales || (a.title < b.title ? -1 : 1))
      .slice(0, DIGEST_LINKS_LISTED);
    await queueMail(
      tx,
      {
        to: digest.email,
        locale: digest.locale,
        template: "sales-digest",
        params: {
          count: digest.count,
          totals: totalsText(sortedTotals(digest.totals), digest.locale),
          links: top.map((l) => ({
            title: l.title,
            sales: l.sales,
            amount: totalsText(sortedTotals(l.totals), digest.locale),
          })),
          ...links(config),
        },
      },
      // Once per creator and day, however many times the day's run is queued or run.
      { dedupeKey: `sales-digest:${creatorId}:${day}` },
    );
  }
  await scheduleSalesDigest(tx, config, to);
  return creators.size;
}
