/**
 * The partner programmes scenario's clicks: `PATCH /programmes/clicks/{code}` measured as api-clicks
 * measures the campaign route (the bare route first, a warm-up on a membership of its own, then a
 * fixed amount on the measured one, every request a new visitor), with the campaign route beside it
 * sent the same amount. The stored counts are compared with the 204 answers after the API's clean
 * stop (`checkPartnerClicks`). Goal: ≥ 10,000 partner clicks a second, none lost.
 */
import { randomBytes } from "node:crypto";
import { jsonHeaders } from "./checkout.ts";
import {
  type Campaign,
  clickRequests,
  clicksGoalPerSecond,
  okAnswers,
  seedCampaigns,
  storedClicks,
} from "./clicks.ts";
import { count, log } from "./context.ts";
import { isValid, type LoadOptions, type Measurement, measure, type RequestParts, warmUp } from "./load.ts";
import type { Options } from "./options.ts";
import { abortState } from "./pairs.ts";
import { line, type PartnersVerdict } from "./partners-pairs.ts";
import { type PartnerSeed, storedPartnerClicks } from "./partners-seed.ts";
import { assertRunning, type Server } from "./servers.ts";

export interface PartnerClickCheck {
  stored: { clicks: number; botClicks: number };
  answered: number;
  lost: number;
}

export interface PartnerClicks {
  baseline: Measurement;
  warmup: Measurement;
  partner: Measurement;
  campaign: Measurement;
  /** Partner clicks over campaign clicks, the same amount of each. */
  ratioCampaign: number;
  ratioBare: number;
  /** Filled in after the API's clean stop. */
  check?: { apiExit: string; partner: PartnerClickCheck; campaign: PartnerClickCheck };
}

function checkAborted(): void {
  if (abortState.aborted) throw new Error("aborted");
}

const run = randomBytes(3).toString("hex");

/** Partner click visitors of this run, never one twice (bare route, warm-up and measured alike). */
let visitors = 0;
/** Visits through a partner's link: no body, each a new visitor (own user agent and address). */
function partnerClickRequests(): () => RequestParts {
  return () => {
    visitors += 1;
    return {
      headers: {
        "user-agent": `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 p/${run}-${visitors}`,
        // A /64 of the documentation prefix per visitor, read by the API behind TRUST_PROXY (as
        // api-clicks does): a header, never an address anything is sent to.
        "x-forwarded-for": `2001:db8:${((visitors >>> 16) & 0xffff).toString(16)}:${(visitors & 0xffff).toString(16)}::1`,
      },
    };
  };
}

/**
 * As api-clicks: the bare route first, then the partner route warmed up (twice) on the warm-up
 * membership and a fixed amount sent to the measured one; then the campaign route, warmed up and
 * sent the same amount, so both rates come from the same work.
 */
export async function runPartnerClicks(
  options: Options,
  api: Server,
  bare: Server,
  databaseUrl: string,
  seed: PartnerSeed,
): Promise<{ clicks: PartnerClicks; campaign: Campaign }> {
  const [warmCampaign, campaign] = await seedCampaigns(databaseUrl, ["pwarm", "pmeasured"]);
  if (!warmCampaign || !campaign) throw new Error("Could not create the click campaigns");
  const base = { connections: options.connections, duration: options.warmup };
  log("  clicks: bare route, partner route, campaign route");
  const bareLoad: LoadOptions = {
    ...base,
    url: `${bare.origin}/bare`,
    method: "POST",
    headers: {},
    request: partnerClickRequests(),
  };
  await warmUp(bareLoad);
  const baseline = await measure("POST /bare (bare Fastify, no body, same headers)", {
    ...bareLoad,
    duration: options.duration,
  });
  log(`  ${baseline.label}: ${line(baseline)}`);

  const partnerLoad = (code: string): LoadOptions => ({
    ...base,
    url: `${api.origin}/programmes/clicks/${code}`,
    method: "PATCH",
    headers: {},
    request: partnerClickRequests(),
  });
  await warmUp(partnerLoad(seed.warm.code));
  const warmed = await measure("warm-up", {
    ...partnerLoad(seed.warm.code),
    duration: Math.max(1, options.warmup),
  });
  // As api-clicks: half the bare route's rate is a floor, so the run lasts about `duration` or more.
  const rate = Math.max(warmed.requestsPerSecond, baseline.requestsPerSecond / 2);
  const amount = Math.max(1_000, Math.round(rate * options.duration));
  log(`  warm-up: ${line(warmed)}; now ${count.format(amount)} clicks on each route ...`);
  checkAborted();
  const partner = await measure("PATCH /programmes/clicks/{code} (API, each a new visitor)", {
    ...partnerLoad(seed.measured.code),
    amount,
  });
  assertRunning(api);
  log(`  ${partner.label}: ${line(partner)}`);

  const campaignLoad = (token: string): LoadOptions => ({
    ...base,
    url: `${api.origin}/campaigns/clicks/${token}`,
    method: "PATCH",
    headers: jsonHeaders,
    request: clickRequests(token),
  });
  await warmUp(campaignLoad(warmCampaign.token));
  await warmUp({ ...campaignLoad(warmCampaign.token), duration: Math.max(1, options.warmup) });
  checkAborted();
  const campaignRun = await measure("PATCH /campaigns/clicks/{token} (API, each a new visitor)", {
    ...campaignLoad(campaign.token),
    amount,
  });
  assertRunning(api);
  log(`  ${campaignRun.label}: ${line(campaignRun)}`);
  return {
    clicks: {
      baseline,
      warmup: warmed,
      partner,
      campaign: campaignRun,
      ratioCampaign: partner.requestsPerSecond / Math.max(1e-9, campaignRun.requestsPerSecond),
      ratioBare: partner.requestsPerSecond / Math.max(1e-9, baseline.requestsPerSecond),
    },
    campaign,
  };
}

/** After the API's clean stop (its last flush): the stored clicks of both routes against their 204s. */
export async function checkPartnerClicks(
  clicks: PartnerClicks,
  stored: { membershipId: string; campaign: Campaign },
  databaseUrl: string,
  apiExit: string,
): Promise<void> {
  const compare = (counted: { clicks: number; botClicks: number }, m: Measurement): PartnerClickCheck => {
    const answered = okAnswers(m);
    return { stored: counted, answered, lost: answered - counted.clicks };
  };
  clicks.check = {
    apiExit,
    partner: compare(await storedPartnerClicks(databaseUrl, stored.membershipId), clicks.partner),
    campaign: compare(await storedClicks(databaseUrl, stored.campaign.id), clicks.campaign),
  };
  const { partner, campaign } = clicks.check;
  log(
    `partners: stored ${count.format(partner.stored.clicks)} partner clicks (bots ${partner.stored.botClicks}) for ` +
      `${count.format(partner.answered)} answered 204: lost ${partner.lost}; campaign route: stored ` +
      `${count.format(campaign.stored.clicks)} for ${count.format(campaign.answered)}: lost ${campaign.lost}`,
  );
}

/** None lost, no bot counted, a clean stop, every answer a 204: the click goal's conditions but the rate. */
export function clicksCounted(c: PartnerClicks): boolean {
  const check = c.check;
  return (
    check !== undefined &&
    check.apiExit === "code 0" &&
    isValid(c.partner) &&
    check.partner.lost === 0 &&
    check.partner.stored.botClicks === 0
  );
}

export function clicksVerdict(c: PartnerClicks): PartnersVerdict {
  if (c.check === undefined || !isValid(c.partner)) return "INVALID";
  return clicksCounted(c) && c.partner.requestsPerSecond >= clicksGoalPerSecond ? "PASS" : "FAIL";
}
