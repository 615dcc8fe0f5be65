/**
 * Affiliate clicks under load (issue 7): PATCH /campaigns/clicks/{token} on the bench API, every
 * request a new visitor (its own user agent and, through X-Forwarded-For, its own address), against POST /bare
 * with the same bodies and headers. The stored count is checked against the clicks answered 204 once
 * the API has been stopped cleanly at the end of the run (its last flush writes the buffer).
 */
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { jsonHeaders } from "./checkout.ts";
import { apiDir, count, log } from "./context.ts";
import { type LoadOptions, type Measurement, measure, type RequestParts, warmUp } from "./load.ts";
import type { Options } from "./options.ts";
import type { Server } from "./servers.ts";

export const clicksGoalPerSecond = 10_000;

interface Pg {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  connect(): Promise<void>;
  end(): Promise<void>;
}

function pgClient(url: string): Pg {
  // The API's own driver, as lib/database.ts does.
  const pg = createRequire(path.join(apiDir, "package.json"))("pg") as {
    Client: new (c: { connectionString: string; connectionTimeoutMillis?: number }) => Pg;
  };
  return new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
}

async function withPg<T>(url: string, use: (client: Pg) => Promise<T>): Promise<T> {
  const client = pgClient(url);
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export interface Campaign {
  id: string;
  token: string;
}

const run = randomBytes(3).toString("hex");

/** Campaigns of one throwaway affiliate, written straight to the bench database (no sign-up flow). */
export async function seedCampaigns(databaseUrl: string, names: string[]): Promise<Campaign[]> {
  return withPg(databaseUrl, async (client) => {
    const user = await client.query(
      "insert into users (email, password_hash) values ($1, 'not-a-password-hash') returning id",
      [`bench-clicks-${run}-${names.join("-")}@example.com`],
    );
    const ownerId = user.rows[0]?.id;
    const campaigns: Campaign[] = [];
    for (const name of names) {
      const token = `bench_${name}_${run}`;
      const row = await client.query(
        "insert into campaigns (owner_id, name, token) values ($1, $2, $3) returning id",
        [ownerId, `Bench ${name}`, token],
      );
      campaigns.push({ id: String(row.rows[0]?.id), token });
    }
    return campaigns;
  });
}

export async function storedClicks(
  databaseUrl: string,
  campaignId: string,
): Promise<{ clicks: number; botClicks: number }> {
  return withPg(databaseUrl, async (client) => {
    const { rows } = await client.query(
      "select coalesce(sum(clicks), 0)::bigint as clicks, coalesce(sum(bot_clicks), 0)::bigint as bots from campaign_click_days where campaign_id = $1",
      [campaignId],
    );
    return { clicks: Number(rows[0]?.clicks ?? 0), botClicks: Number(rows[0]?.bots ?? 0) };
  });
}

let visitors = 0;
/** Click bodies for one campaign, each request from a new visitor (its own user agent and address). */
export function clickRequests(token: string): () => RequestParts {
  const body = JSON.stringify({ token });
  return () => {
    visitors += 1;
    return {
      body,
      headers: {
        "user-agent": `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 v/${run}-${visitors}`,
        // A /64 of the documentation prefix per visitor (an IPv6 /64 counts as one address): a header
        // read by the API behind TRUST_PROXY, never an address anything is sent to.
        "x-forwarded-for": `2001:db8:${((visitors >>> 16) & 0xffff).toString(16)}:${(visitors & 0xffff).toString(16)}::1`,
      },
    };
  };
}

export interface ClicksResult {
  baseline: Measurement;
  warmup: Measurement;
  target: Measurement;
  ratio: number;
  /** Filled in after the API's clean stop. */
  check?: ClickCheck;
  pass: boolean;
}

export interface ClickCheck {
  stored: { clicks: number; botClicks: number };
  answered: number;
  lost: number;
  apiExit: string;
}

const line = (m: Measurement) =>
  `${count.format(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms, ${count.format(m.total)} answers, non-2xx ${m.non2xx}, errors ${m.errors}`;

export const okAnswers = (m: Pick<Measurement, "statusCodes">) => m.statusCodes["204"] ?? 0;

/**
 * Measures the bare route, then warms the click route up on a campaign of its own and sends a fixed
 * number of clicks (about `duration` seconds' worth) to a second one, all answered before the end, so
 * that every click the API counts is one the bench saw answered.
 */
export async function runClicks(
  options: Options,
  bare: Server,
  api: Server,
  databaseUrl: string,
): Promise<{ result: ClicksResult; measured: Campaign }> {
  const [warm, measured] = await seedCampaigns(databaseUrl, ["warm", "measured"]);
  if (!warm || !measured) throw new Error("Could not create the click campaigns");
  const load = (url: string, token: string, method: "POST" | "PATCH"): LoadOptions => ({
    url,
    method,
    headers: jsonHeaders,
    request: clickRequests(token),
    connections: options.connections,
    duration: options.warmup,
  });

  // The bare route first: POST (its server has no PATCH route), same JSON bodies and user agents.
  const bareLoad = load(`${bare.origin}/bare`, measured.token, "POST");
  await warmUp(bareLoad);
  const baseline = await measure("POST /bare (bare Fastify, same bodies and headers)", {
    ...bareLoad,
    duration: options.duration,
  });
  log(`  ${baseline.label}: ${line(baseline)}`);

  const clickLoad = (token: string) => load(`${api.origin}/campaigns/clicks/${token}`, token, "PATCH");
  // Twice: the first round's rate still carries the JIT's start, and would size the run too short.
  await warmUp(clickLoad(warm.token));
  const warmed = await measure("warm-up", {
    ...clickLoad(warm.token),
    duration: Math.max(1, options.warmup),
  });
  // The warm-up's rate undershoots on a busy machine; half the bare route's rate is a floor, so that
  // the measured run lasts about `duration` seconds or more, bounded by the run's time budget.
  const rate = Math.max(warmed.requestsPerSecond, baseline.requestsPerSecond / 2);
  const amount = Math.max(1_000, Math.round(rate * options.duration));
  log(`  warm-up: ${line(warmed)}; now ${count.format(amount)} clicks ...`);
  const target = await measure("PATCH /campaigns/clicks/{token} (API, each a new visitor)", {
    ...clickLoad(measured.token),
    amount,
  });
  log(`  ${target.label}: ${line(target)}`);
  const ratio = target.requestsPerSecond / baseline.requestsPerSecond;
  return {
    result: { baseline, warmup: warmed, target, ratio, pass: false },
    measured,
  };
}

/** After the API's clean stop: the stored clicks against the 204 answers; sets the verdict. */
export async function checkClicks(
  result: ClicksResult,
  databaseUrl: string,
  campaign: Campaign,
  apiExit: string,
): Promise<void> {
  const stored = await storedClicks(databaseUrl, campaign.id);
  const answered = okAnswers(result.target);
  const lost = answered - stored.clicks;
  result.check = { stored, answered, lost, apiExit };
  const valid = result.target.non2xx === 0 && result.target.errors === 0 && apiExit === "code 0";
  result.pass =
    valid && lost === 0 && stored.botClicks === 0 && result.target.requestsPerSecond >= clicksGoalPerSecond;
  log(
    `api-clicks: stored ${count.format(stored.clicks)} clicks (bots ${stored.botClicks}) for ${count.format(answered)} answered 204: lost ${lost}; ` +
      `ratio ${result.ratio.toFixed(2)}; goal ≥ ${count.format(clicksGoalPerSecond)} clicks/s with none lost: ${result.pass ? "PASS" : "FAIL"}`,
  );
}
