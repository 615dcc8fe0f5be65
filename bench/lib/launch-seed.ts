/**
 * What the launch-day scenario needs: creators and their sessions written straight to the bench
 * database, their profiles, links and referral campaigns made through the API, and a creator with
 * 100,000 paid orders written straight to the database (the API has no bulk path), whose ledger is the one `orderPaid` and `holdReleased` (apps/api/src/modules/wallet/postings.ts)
 * would have written, so that the ledger audit stays clean.
 */
import { createHash, randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { apiDir } from "./context.ts";

interface Pg {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  connect(): Promise<void>;
  end(): Promise<void>;
}

/** The API's own driver, as database.ts does, so the bench never declares a second one. */
export async function withPg<T>(url: string, use: (client: Pg) => Promise<T>): Promise<T> {
  const pg = createRequire(path.join(apiDir, "package.json"))("pg") as {
    Client: new (c: { connectionString: string; connectionTimeoutMillis?: number }) => Pg;
  };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Distinguishes this run's rows (e-mails, tokens) from any other's. */
export const launchRun = randomBytes(3).toString("hex");

/** The launch's price: 15.00 EUR, the fee 1.50 at the default 10%. */
export const launchPrice = { minor: 1500, currency: "EUR" } as const;

export interface SeededLink {
  id: string;
  token: string;
  stockLimit: number | null;
}

export interface SeededCreator {
  id: string;
  /** `sid=…`: a live session of this creator, for the dashboard's reads. */
  cookie: string;
  links: SeededLink[];
  campaign: { id: string; token: string };
}

/** A session as sign-in stores it: the SHA-256 of the cookie's token (apps/api/src/lib/tokens.ts). */
export async function insertSession(client: Pg, userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const hash = createHash("sha256").update(token).digest("hex");
  await client.query(
    "insert into sessions (token_hash, user_id, expires_at) values ($1, $2, now() + interval '1 day')",
    [hash, userId],
  );
  return `sid=${token}`;
}

/**
 * Accounts and their sessions straight into the database (signing up through the API would spend
 * an argon2 hash and the sign-up rate limit on each); verified and onboarded, as a selling creator is.
 */
async function insertCreators(
  databaseUrl: string,
  labels: string[],
): Promise<Array<{ id: string; cookie: string }>> {
  return withPg(databaseUrl, async (client) => {
    const out: Array<{ id: string; cookie: string }> = [];
    for (const label of labels) {
      const { rows } = await client.query(
        `insert into users (email, password_hash, email_verified_at, onboarding_completed_at)
         values ($1, 'not-a-password-hash', now(), now()) returning id`,
        [`bench-launch-${launchRun}-${label}@example.com`],
      );
      const id = String(rows[0]?.id);
      out.push({ id, cookie: await insertSession(client, id) });
    }
    return out;
  });
}

/** A signed-in call to the API that must succeed: its JSON answer. */
async function call(
  origin: string,
  cookie: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The catalogue through the API, so that a link is whatever the API makes of it (a limited stock may
 * carry rows of its own): a profile, a link per stock limit (null: unlimited), a referral campaign.
 */
async function createCatalogue(
  origin: string,
  creator: { id: string; cookie: string },
  label: string,
  stockLimits: Array<number | null>,
): Promise<SeededCreator> {
  const handle = `l${launchRun}_${label}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .slice(0, 30);
  const profile = await call(origin, creator.cookie, "/profiles", { displayName: `Launch ${label}`, handle });
  const links: SeededLink[] = [];
  for (const [i, stockLimit] of stockLimits.entries()) {
    const link = await call(origin, creator.cookie, "/links", {
      profileId: profile.id,
      title: `Launch drop ${i + 1}`,
      priceMinor: launchPrice.minor,
      currency: launchPrice.currency,
      stockLimit,
    });
    links.push({ id: String(link.id), token: String(link.token), stockLimit });
  }
  const campaign = await call(origin, creator.cookie, "/campaigns", { name: `Launch ${label}` });
  return { ...creator, links, campaign: { id: String(campaign.id), token: String(campaign.token) } };
}

/** One creator with a link per stock limit given (null: unlimited) and their own referral campaign. */
export async function seedCreator(
  databaseUrl: string,
  origin: string,
  label: string,
  stockLimits: Array<number | null>,
): Promise<SeededCreator> {
  const [creator] = await insertCreators(databaseUrl, [label]);
  if (!creator) throw new Error("No creator inserted");
  return createCatalogue(origin, creator, label, stockLimits);
}

/** `count` creators, each with one link limited to `stock` (the 100-creator payment phase). */
export async function seedCreators(
  databaseUrl: string,
  origin: string,
  count: number,
  stock: number,
): Promise<SeededLink[]> {
  const labels = Array.from({ length: count }, (_, i) => `many${i + 1}`);
  const creators = await insertCreators(databaseUrl, labels);
  const links: SeededLink[] = [];
  // A few at a time: quick, without measuring anything.
  for (let i = 0; i < creators.length; i += 10) {
    const batch = creators
      .slice(i, i + 10)
      .map((c, j) => createCatalogue(origin, c, labels[i + j] ?? "", [stock]));
    for (const seeded of await Promise.all(batch)) links.push(...seeded.links);
  }
  return links;
}

export interface ScaleSeed {
  creator: SeededCreator;
  orders: number;
  seconds: number;
}

/**
 * A creator with `orders` paid orders spread over the last 90 days, each with the ledger posting of
 * `orderPaid` (provider −gross, the creator's pending +net, platform_fees +fee; no referrer), and,
 * for those past the 7-day hold, the `holdReleased` posting (pending −net, available +net) and the
 * order marked released, as the hold-release job leaves them; the running balances are the sums of
 * those entries, the link's sales counter the number of orders; 90 days of clicks on the campaign.
 * The orders' `updated_at` is the time of this insert, as for any write: whatever keeps rollups by
 * what changed since its last pass sees them.
 */
export async function seedScaleCreator(
  databaseUrl: string,
  origin: string,
  orders: number,
): Promise<ScaleSeed> {
  const started = Date.now();
  const creator = await seedCreator(databaseUrl, origin, "scale", [null]);
  const link = creator.links[0];
  if (!link) throw new Error("The scale creator has no link");
  await withPg(databaseUrl, async (client) => {
    await client.query("begin");
    const fee = Math.floor((launchPrice.minor * 1000 + 5000) / 10000);
    // One statement per table, all from the same generated series, in one transaction.
    await client.query(
      `create temporary table launch_scale on commit drop as
       select gen_random_uuid() as order_id, gen_random_uuid() as paid_tx, gen_random_uuid() as release_tx, g,
              now() - (g::double precision / $1::int) * interval '90 days' as paid_at
       from generate_series(1, $1::int) g`,
      [orders],
    );
    await client.query(
      `insert into orders (id, link_id, creator_id, buyer_email, locale, status, currency, price_minor,
         total_minor, provider, provider_payment_id, access_token_hash, checkout_secret_hash, fee_minor,
         commission_minor, net_minor, paid_at, available_at, released_at, created_at, updated_at)
       select order_id, $1, $2, 'buyer-' || $6 || '-' || g || '@example.com', 'en', 'paid', 'EUR', $3, $3,
         'sandbox', 'sbx_pi_launch_' || $6 || '_' || g, md5('access' || order_id::text),
         md5('secret' || order_id::text), $4, 0, $5, paid_at, paid_at + interval '7 days',
         case when paid_at + interval '7 days' <= now() then paid_at + interval '7 days' end,
         paid_at - interval '2 minutes', now()
       from launch_scale`,
      [link.id, creator.id, launchPrice.minor, fee, launchPrice.minor - fee, launchRun],
    );
    await client.query(
      `insert into ledger_transactions (id, kind, reference, memo, created_at)
       select paid_tx, 'order_paid', order_id::text, jsonb_build_object('gross', $1::int, 'fee', $2::int), paid_at
       from launch_scale
       union all
       select release_tx, 'hold_release', order_id::text, '{}'::jsonb, paid_at + interval '7 days'
       from launch_scale where paid_at + interval '7 days' <= now()`,
      [launchPrice.minor, fee],
    );
    await client.query(
      `insert into ledger_entries (transaction_id, account, owner_id, currency, amount_minor, available_at, created_at)
       select paid_tx, 'provider', null, 'EUR', -$2::bigint, null, paid_at from launch_scale
       union all
       select paid_tx, 'pending', $1::uuid, 'EUR', $4::bigint, paid_at + interval '7 days', paid_at from launch_scale
       union all
       select paid_tx, 'platform_fees', null, 'EUR', $3::bigint, null, paid_at from launch_scale
       union all
       select release_tx, e.account, $1::uuid, 'EUR', e.sign * $4::bigint, null, paid_at + interval '7 days'
       from launch_scale cross join (values ('pending', -1), ('available', 1)) as e(account, sign)
       where paid_at + interval '7 days' <= now()`,
      [creator.id, launchPrice.minor, fee, launchPrice.minor - fee],
    );
    await client.query(
      `insert into ledger_balances (owner_id, account, currency, balance_minor)
       select owner_id, account, currency, sum(amount_minor) from ledger_entries
       where owner_id = $1 group by owner_id, account, currency`,
      [creator.id],
    );
    await client.query("update links set sales_count = $2 where id = $1", [link.id, orders]);
    await client.query(
      `insert into campaign_click_days (campaign_id, day, clicks)
       select $1, current_date - d, 50 + d from generate_series(0, 89) d`,
      [creator.campaign.id],
    );
    await client.query("commit");
    await client.query("analyze orders; analyze ledger_entries; analyze ledger_transactions");
  });
  return { creator, orders, seconds: (Date.now() - started) / 1000 };
}
