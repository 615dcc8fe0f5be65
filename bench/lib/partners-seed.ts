/**
 * The partner programmes scenario's rows, written straight to the bench database (no sign-up flow,
 * as the click campaigns are): the demo link's creator gets an open programme and two partners, one
 * whose code the checkouts and the measured clicks carry, one for the clicks' warm-up. After the
 * payments, the orders and the ledger are read back in SQL to check what attribution did.
 */
import { randomBytes } from "node:crypto";
import { withPg } from "./launch-seed.ts";

/** The programme the scenario measures: 15 % of what the buyer paid, a 30-day window, open. */
export const benchProgramme = { rateBps: 1500, windowDays: 30, joinMode: "open" } as const;

export interface BenchMembership {
  id: string;
  partnerId: string;
  /** The `?via=` code: 8 characters of [A-Za-z0-9_-], as PARTNER_CODE_LENGTH says. */
  code: string;
}

export interface PartnerSeed {
  creatorId: string;
  measured: BenchMembership;
  warm: BenchMembership;
}

const run = randomBytes(3).toString("hex");

/** 6 random bytes in base64url: exactly 8 characters of the code's alphabet. */
const newCode = () => randomBytes(6).toString("base64url");

/**
 * Turns the link's creator's programme on (an upsert: the demo creator may have saved one) and adds
 * two active partners with their own accounts, each e-mail unlike any buyer's (no self-purchase).
 */
export async function seedPartners(databaseUrl: string, linkToken: string): Promise<PartnerSeed> {
  return withPg(databaseUrl, async (client) => {
    const link = await client.query("select owner_id from links where token = $1", [linkToken]);
    const creatorId = link.rows[0]?.owner_id;
    if (typeof creatorId !== "string") throw new Error(`No link with the token ${linkToken}`);
    await client.query(
      `insert into partner_programmes (creator_id, enabled, default_rate_bps, window_days, join_mode)
       values ($1, true, $2, $3, $4)
       on conflict (creator_id) do update set enabled = true, default_rate_bps = excluded.default_rate_bps,
         window_days = excluded.window_days, join_mode = excluded.join_mode, updated_at = now()`,
      [creatorId, benchProgramme.rateBps, benchProgramme.windowDays, benchProgramme.joinMode],
    );
    const member = async (name: string): Promise<BenchMembership> => {
      const user = await client.query(
        "insert into users (email, password_hash) values ($1, 'not-a-password-hash') returning id",
        [`bench-partner-${run}-${name}@example.com`],
      );
      const partnerId = String(user.rows[0]?.id);
      const code = newCode();
      const row = await client.query(
        `insert into partner_memberships (creator_id, partner_id, status, code, decided_at)
         values ($1, $2, 'active', $3, now()) returning id`,
        [creatorId, partnerId, code],
      );
      return { id: String(row.rows[0]?.id), partnerId, code };
    };
    const measured = await member("measured");
    const warm = await member("warm");
    return { creatorId, measured, warm };
  });
}

export async function storedPartnerClicks(
  databaseUrl: string,
  membershipId: string,
): Promise<{ clicks: number; botClicks: number }> {
  return withPg(databaseUrl, async (client) => {
    const { rows } = await client.query(
      "select coalesce(sum(clicks), 0)::bigint as clicks, coalesce(sum(bot_clicks), 0)::bigint as bots from partner_click_days where membership_id = $1",
      [membershipId],
    );
    return { clicks: Number(rows[0]?.clicks ?? 0), botClicks: Number(rows[0]?.bots ?? 0) };
  });
}

/** What the orders of one kind (checkouts with or without `via`) carry once their payments ran. */
export interface OrdersCheck {
  /** Orders the checkouts created (warm-ups and top-ups included). */
  created: number;
  /** Of those, attributed to the measured partner at checkout. */
  attributed: number;
  paid: number;
  /** Paid with `partner_commission_minor` > 0. */
  commissioned: number;
  /** Paid with a `partner_pending` entry for the partner, of the commission, in its `order_paid` transaction. */
  ledger: number;
  /** Smallest and largest commission of the paid orders (minor units), when any. */
  commissionMinor: { min: number; max: number } | null;
}

export interface AttributionCheck {
  a: OrdersCheck;
  b: OrdersCheck;
  /** A's orders carry no partner, commission or entry; every B order is attributed, every paid one pays. */
  ok: boolean;
}

async function ordersCheck(databaseUrl: string, ids: string[], membershipId: string): Promise<OrdersCheck> {
  return withPg(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `select count(*)::int as created,
         count(*) filter (where o.partner_membership_id = $2)::int as attributed,
         count(*) filter (where o.status = 'paid')::int as paid,
         count(*) filter (where o.status = 'paid' and o.partner_commission_minor > 0)::int as commissioned,
         count(*) filter (where o.status = 'paid' and exists (
           select 1 from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
           where t.kind = 'order_paid' and t.reference = o.id::text and e.account = 'partner_pending'
             and e.owner_id = o.partner_id and e.amount_minor = o.partner_commission_minor))::int as ledger,
         min(o.partner_commission_minor) filter (where o.status = 'paid') as min_commission,
         max(o.partner_commission_minor) filter (where o.status = 'paid') as max_commission
       from orders o where o.id = any($1::uuid[])`,
      [ids, membershipId],
    );
    const r = rows[0] ?? {};
    const min = r.min_commission;
    const max = r.max_commission;
    return {
      created: Number(r.created ?? 0),
      attributed: Number(r.attributed ?? 0),
      paid: Number(r.paid ?? 0),
      commissioned: Number(r.commissioned ?? 0),
      ledger: Number(r.ledger ?? 0),
      commissionMinor: min === null || max === null ? null : { min: Number(min), max: Number(max) },
    };
  });
}

/**
 * A's orders (no `via`) must carry no partner and pay none; every B order must be attributed to the
 * measured partner, and every paid one must carry a commission and its `partner_pending` entry.
 */
export async function checkAttribution(
  databaseUrl: string,
  orders: { a: string[]; b: string[] },
  membershipId: string,
): Promise<AttributionCheck> {
  const a = await ordersCheck(databaseUrl, orders.a, membershipId);
  const b = await ordersCheck(databaseUrl, orders.b, membershipId);
  const ok =
    a.attributed === 0 &&
    a.commissioned === 0 &&
    a.ledger === 0 &&
    b.created > 0 &&
    b.attributed === b.created &&
    b.paid > 0 &&
    b.commissioned === b.paid &&
    b.ledger === b.paid;
  return { a, b, ok };
}
