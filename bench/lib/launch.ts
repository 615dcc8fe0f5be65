import { count, log } from "./context.ts";
import type { BenchDatabase } from "./database.ts";
import { baselines } from "./launch-baselines.ts";
import {
  type Check,
  clicksCheck,
  deliveryCheck,
  type EventAnswers,
  entriesCheck,
  ledgerAudit,
  logChecks,
  paidAmong,
  refreshDashboardRollups,
  salesCheck,
} from "./launch-checks.ts";
import { describeRun, type LoadRun, warmThenMeasure } from "./launch-load.ts";
import {
  checkouts,
  dashboardPaths,
  eventPrefix,
  oneCheckout,
  type PaymentPhase,
  paymentPhase,
  redeliveredShare,
} from "./launch-phases.ts";
import { seedCreator, seedCreators, seedScaleCreator } from "./launch-seed.ts";
import type { Options } from "./options.ts";
import type { Server } from "./servers.ts";

/**
 * The drop: a stock of `--launch-stock` (10,000), as many checkouts on the unlimited link, the same
 * number of sales over 100 creators, and a dashboard of ten times as many past orders (100,000).
 */
export function launchSizes(stock: number) {
  return { stock, creators: 100, scaleOrders: 10 * stock };
}

export const launchGoals = {
  paymentsPerSecond: 1_000,
  checkoutsPerSecond: 1_500,
  readP99Ms: 50,
  readRatio: 0.1,
  clickRatio: 0.5,
} as const;

export interface LaunchResult {
  instances: number;
  /** The link's stock limit, checkouts per link and events per payment phase. */
  stock: number;
  connections: { payments: number; clicks: number; reads: number };
  baselines: { payment: LoadRun; checkout: LoadRun; click: LoadRun; read: LoadRun };
  checkouts: { limited: LoadRun; refusedStatus: number; open: LoadRun; many: LoadRun };
  payments: { one: PaymentPhase; many: PaymentPhase };
  scale: { orders: number; seedSeconds: number; rollups: string; reads: LoadRun[] };
  /** How the tables' statistics were kept current during the phases (autovacuum's stand-in). */
  analyzed?: string;
  checks: Check[];
  /** Every check held (the rates' goals are reported apart). */
  pass: boolean;
}

export async function runLaunch(
  options: Options,
  apis: Server[],
  bare: Server,
  database: BenchDatabase,
): Promise<LaunchResult> {
  const url = database.env.DATABASE_URL;
  const launchSize = launchSizes(options.launchStock);
  if (!url) throw new Error("The launch scenario needs PostgreSQL");
  const origins = apis.map((a) => a.origin);
  const apiOrigin = origins[0] ?? "";
  const fifth = Math.max(1, Math.round(options.connections / 5));
  const connections = { payments: options.connections, clicks: fifth, reads: fifth };
  log(
    `  ${apis.length} API instance(s); connections: payments and checkouts ${connections.payments}, clicks ${connections.clicks}, dashboard ${connections.reads}`,
  );

  const base = await baselines(options, bare, connections);

  const creator = await seedCreator(url, apiOrigin, "one", [launchSize.stock, null]);
  const warm = await seedCreator(url, apiOrigin, "warm", [null]);
  const many = await seedCreators(
    url,
    apiOrigin,
    launchSize.creators,
    launchSize.stock / launchSize.creators,
  );
  const analyzer = database.keepAnalyzed?.();
  const [limited, open] = creator.links;
  if (!limited || !open || !warm.links[0]) throw new Error("The launch links were not created");
  const concurrent = {
    origins,
    cookie: creator.cookie,
    connections,
    ...(database.sampleActivity ? { sampler: database.sampleActivity } : {}),
    paidAmong: (ids: string[]) => paidAmong(url, ids),
  };
  const answers: EventAnswers = new Map();

  if (options.warmup > 0) {
    log(`  warm-up: checkouts, payments, clicks and reads on a creator of their own ...`);
    const warmed = await checkouts(
      "warm-up checkouts",
      origins,
      connections.payments,
      [warm.links[0].token],
      Math.max(200, 100 * options.warmup),
    );
    await paymentPhase(
      "warm-up payments",
      "warm",
      1,
      warmed.orders,
      { ...concurrent, clickToken: warm.campaign.token, cookie: warm.cookie },
      new Map(),
    );
  }

  log(
    `  checkouts: ${count.format(launchSize.stock)} on the link limited to ${count.format(launchSize.stock)} ...`,
  );
  const limitedRun = await checkouts(
    "checkouts, limited link",
    origins,
    connections.payments,
    [limited.token],
    launchSize.stock,
  );
  const refusedStatus = await oneCheckout(origins[0] ?? "", limited.token);
  log(`  checkout ${count.format(launchSize.stock + 1)} of the limited link: HTTP ${refusedStatus}`);
  const openRun = await checkouts(
    "checkouts, unlimited link",
    origins,
    connections.payments,
    [open.token],
    launchSize.stock,
  );

  log(
    `  payments for one creator (${count.format(limitedRun.orders.length)} events, ${Math.round(100 * redeliveredShare)}% redelivered) with clicks and dashboard reads ...`,
  );
  const one = await paymentPhase(
    "one creator",
    "one",
    1,
    limitedRun.orders,
    { ...concurrent, clickToken: creator.campaign.token },
    answers,
  );
  const clicksOne = await clicksCheck(
    url,
    creator.campaign.id,
    one.clicks.statusCodes["204"] ?? 0,
    connections.clicks,
  );

  log(
    `  checkouts for ${launchSize.creators} creators (${count.format(launchSize.stock)}, ${launchSize.stock / launchSize.creators} each) ...`,
  );
  const manyRun = await checkouts(
    `checkouts, ${launchSize.creators} creators`,
    origins,
    connections.payments,
    many.map((l) => l.token),
    launchSize.stock,
  );
  const manyClicks = await seedCreator(url, apiOrigin, "many_clicks", []);
  const manyPhase = await paymentPhase(
    `${launchSize.creators} creators`,
    "many",
    launchSize.creators,
    manyRun.orders,
    { ...concurrent, clickToken: manyClicks.campaign.token },
    answers,
  );
  const clicksMany = await clicksCheck(
    url,
    manyClicks.campaign.id,
    manyPhase.clicks.statusCodes["204"] ?? 0,
    connections.clicks,
  );
  const analyzed = await analyzer?.stop();
  if (analyzed) log(`  ${analyzed}`);

  const checks: Check[] = [
    { ...(await ledgerAudit(url, options.apiDir)), name: "ledger audit after the payments" },
    await entriesCheck(url),
    {
      name: `checkout ${count.format(launchSize.stock + 1)} of the limited link refused`,
      ok: refusedStatus === 409 && limitedRun.run.ok === launchSize.stock,
      detail: `${count.format(limitedRun.run.ok)} checkouts answered 201, then HTTP ${refusedStatus}`,
    },
    deliveryCheck(answers, one.events + manyPhase.events, one.deliveries + manyPhase.deliveries),
    ...(await salesCheck(
      url,
      "limited link",
      [limited.id],
      launchSize.stock,
      limitedRun.orders.map((o) => o.orderId),
      `${eventPrefix}one_`,
    )),
    ...(await salesCheck(
      url,
      `${launchSize.creators} creators`,
      many.map((l) => l.id),
      launchSize.stock,
      manyRun.orders.map((o) => o.orderId),
      `${eventPrefix}many_`,
    )),
    clicksOne,
    clicksMany,
  ];

  log(`  dashboard at scale: a creator with ${count.format(launchSize.scaleOrders)} paid orders ...`);
  const scale = await seedScaleCreator(url, apiOrigin, launchSize.scaleOrders);
  log(`  seeded in ${scale.seconds.toFixed(1)} s`);
  checks.push({
    ...(await ledgerAudit(url, options.apiDir)),
    name: `ledger audit with the ${count.format(scale.orders)} seeded orders`,
  });
  checks.push({
    ...(await entriesCheck(url)),
    name: `entries balanced, none negative, with the ${count.format(scale.orders)} seeded orders`,
  });
  const rollups = await refreshDashboardRollups(url, options.apiDir);
  log(`  rollups: ${rollups}`);
  const reads: LoadRun[] = [];
  for (const path of dashboardPaths) {
    const run = await warmThenMeasure(
      {
        label: `GET ${path}`,
        origins,
        path,
        method: "GET",
        headers: { cookie: scale.creator.cookie },
        connections: connections.reads,
      },
      options.warmup,
      options.duration,
    );
    log(`    ${describeRun(run)}`);
    reads.push(run);
  }
  logChecks(checks);
  return {
    instances: apis.length,
    stock: launchSize.stock,
    connections,
    baselines: base,
    checkouts: { limited: limitedRun.run, refusedStatus, open: openRun.run, many: manyRun.run },
    payments: { one, many: manyPhase },
    scale: { orders: scale.orders, seedSeconds: scale.seconds, rollups, reads },
    ...(analyzed ? { analyzed } : {}),
    checks,
    pass: checks.every((c) => c.ok),
  };
}
