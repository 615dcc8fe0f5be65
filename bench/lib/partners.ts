/**
 * Partner programmes (issue 20, "Performance and scale"): what attribution costs, measured side by
 * side in one run on PostgreSQL. The demo link's creator gets a programme and partners
 * (partners-seed.ts); checkouts without `via` (A) and with the partner's code (B), then the payments
 * of each kind's orders, alternated A, B, B, A (partners-pairs.ts); the orders and the ledger checked
 * in SQL; then partner clicks beside campaign clicks (partners-clicks.ts), checked after the API's
 * clean stop. Goals: B/A ≥ 0.9 for checkouts and for payments; partner clicks ≥ 10,000/s, none lost.
 */
import type { Campaign } from "./clicks.ts";
import { clicksGoalPerSecond } from "./clicks.ts";
import { count, demoLinkToken, log } from "./context.ts";
import type { Options } from "./options.ts";
import {
  checkPartnerClicks,
  clicksVerdict,
  type PartnerClicks,
  runPartnerClicks,
} from "./partners-clicks.ts";
import {
  type CheckoutPair,
  partnersRatioGoal,
  ratioText,
  ratioVerdict,
  runPairs,
  topUpLimit,
  type WebhookPair,
  webhookVerdict,
} from "./partners-pairs.ts";
import {
  type AttributionCheck,
  benchProgramme,
  checkAttribution,
  type PartnerSeed,
  seedPartners,
} from "./partners-seed.ts";
import type { Server } from "./servers.ts";

export interface PartnersResult {
  programme: typeof benchProgramme;
  checkout: CheckoutPair;
  webhook: WebhookPair;
  attribution: AttributionCheck;
  clicks: PartnerClicks;
}

/** What the API's clean stop needs to compare the stored clicks with the answers. */
export interface PartnersPending {
  result: PartnersResult;
  seed: PartnerSeed;
  campaign: Campaign;
}

/** Seconds the scenario may take, for the run's watchdog: generous, since a loaded machine is slow. */
export function partnersSeconds(options: Options): number {
  const phase = options.warmup + options.duration + 15;
  // Each pair: two warm-ups (twice for payments) and four rounds; payments also top up their orders.
  const pair = 6 * phase;
  // Clicks: the bare route, two warm-ups per route, two fixed amounts (up to 3 times `duration`).
  const clicks = 4 * (options.warmup + 15) + phase + 6 * options.duration;
  return 2 * pair + 2 * options.warmup + 2 * topUpLimit(options) + clicks + 60;
}

export async function runPartners(
  options: Options,
  api: Server,
  bare: Server,
  databaseUrl: string,
): Promise<PartnersPending> {
  const seed = await seedPartners(databaseUrl, demoLinkToken);
  log(
    `  programme of the demo link's creator on (${benchProgramme.rateBps / 100} %, ` +
      `${benchProgramme.windowDays} days, ${benchProgramme.joinMode}); partner code ${seed.measured.code}`,
  );
  const { checkout, webhook, ids } = await runPairs(options, api, seed.measured.code);
  const attribution = await checkAttribution(databaseUrl, ids, seed.measured.id);
  log(`    ${attributionLine(attribution)}`);
  const { clicks, campaign } = await runPartnerClicks(options, api, bare, databaseUrl, seed);
  return {
    result: { programme: benchProgramme, checkout, webhook, attribution, clicks },
    seed,
    campaign,
  };
}

/** After the API's clean stop: the stored partner and campaign clicks against their 204 answers. */
export async function checkPartners(pending: PartnersPending, databaseUrl: string, apiExit: string) {
  await checkPartnerClicks(
    pending.result.clicks,
    { membershipId: pending.seed.measured.id, campaign: pending.campaign },
    databaseUrl,
    apiExit,
  );
}

/** The checks that say the figures are about the right work: attribution, ledger, no click lost. */
export function checksPass(r: PartnersResult): boolean {
  const c = r.clicks.check;
  return r.attribution.ok && c !== undefined && c.partner.lost === 0 && c.campaign.lost === 0;
}

export function attributionLine(c: AttributionCheck): string {
  const each = c.b.commissionMinor;
  const money = each
    ? ` (${each.min === each.max ? each.min : `${each.min}–${each.max}`} minor units each)`
    : "";
  return (
    `Attribution in SQL: B ${count.format(c.b.attributed)} of ${count.format(c.b.created)} orders attributed to the partner, ` +
    `${count.format(c.b.paid)} paid, ${count.format(c.b.commissioned)} with \`partner_commission_minor\` > 0${money}, ` +
    `${count.format(c.b.ledger)} with their \`partner_pending\` entry; A ${count.format(c.a.paid)} of ${count.format(c.a.created)} paid, ` +
    `${c.a.attributed} attributed, ${c.a.commissioned} with a commission, ${c.a.ledger} entries: ${c.ok ? "OK" : "**WRONG**"}.`
  );
}

/** One line per goal and one for the checks, for the console. */
export function partnersSummary(r: PartnersResult): string[] {
  const c = r.clicks;
  const lost = c.check ? `lost ${c.check.partner.lost}` : "not checked";
  const rates = (p: CheckoutPair | WebhookPair) =>
    `A ${count.format(p.rateA)}/s, B ${count.format(p.rateB)}/s`;
  return [
    `partners checkout: B/A ${ratioText(r.checkout.ratio)} (${rates(r.checkout)}), goal ≥ ${partnersRatioGoal}: ${ratioVerdict(r.checkout)}`,
    `partners webhook: B/A ${ratioText(r.webhook.ratio)} (${rates(r.webhook)}), goal ≥ ${partnersRatioGoal}: ${webhookVerdict(r.webhook)}`,
    `partners clicks: ${count.format(c.partner.requestsPerSecond)}/s, ${lost} (campaign route ` +
      `${count.format(c.campaign.requestsPerSecond)}/s, ratio ${c.ratioCampaign.toFixed(2)}), ` +
      `goal ≥ ${count.format(clicksGoalPerSecond)}/s with none lost: ${clicksVerdict(c)}`,
    `partners checks (attribution, ledger, clicks stored): ${checksPass(r) ? "PASS" : "FAIL"}`,
  ];
}
