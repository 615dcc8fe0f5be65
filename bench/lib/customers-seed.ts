/**
 * The customers scenario's rows, written straight to the bench database with SQL (the API has no
 * bulk path): one creator with `orders` paid orders over the last year, spread over a few links,
 * bought by about 63 % as many distinct addresses (each order's buyer drawn at random among as many
 * addresses as orders), one in fifty refunded in full; then their `customers` rows, as the payments
 * would have written them. No ledger postings: the screen reads only orders and customers, and the
 * scenario runs after the launch scenario's ledger audit.
 */
import { randomBytes } from "node:crypto";
import { insertSession, withPg } from "./launch-seed.ts";

export interface CustomersSeed {
  creatorId: string;
  /** `sid=…`: a live session of the creator. */
  cookie: string;
  linkIds: string[];
  orders: number;
  customers: number;
  /** A part of one address that matches a few customers (the measured search). */
  search: string;
  seconds: number;
}

export const CUSTOMER_LINKS = 8;

export async function seedCustomers(databaseUrl: string, orders: number): Promise<CustomersSeed> {
  const started = Date.now();
  const run = randomBytes(3).toString("hex");
  return withPg(databaseUrl, async (client) => {
    await client.query("begin");
    const user = await client.query(
      `insert into users (email, password_hash, email_verified_at, onboarding_completed_at)
       values ($1, 'not-a-password-hash', now(), now()) returning id`,
      [`bench-customers-${run}@example.com`],
    );
    const creatorId = String(user.rows[0]?.id);
    const links = await client.query(
      `insert into links (owner_id, title, price_minor, currency, token, sales_count)
       select $1, 'Bench customers link ' || i, 1500, 'EUR', 'bench-customers-' || $2 || '-' || i, 0
       from generate_series(1, $3::int) i returning id`,
      [creatorId, run, CUSTOMER_LINKS],
    );
    const linkIds = links.rows.map((r) => String(r.id));
    await client.query(
      `insert into orders (link_id, creator_id, buyer_email, locale, status, currency, price_minor,
         total_minor, provider, provider_payment_id, checkout_secret_hash, fee_minor, commission_minor,
         net_minor, refunded_minor, paid_at, refunded_at, created_at, updated_at)
       select ($3::uuid[])[1 + g % cardinality($3::uuid[])], $1,
         'buyer-' || $2 || '-' || (1 + floor(random() * $4::int))::int || '@example.com', 'en',
         case when g % 50 = 0 then 'refunded' else 'paid' end, 'EUR', 1500, 1500, 'sandbox',
         'sbx_pi_customers_' || $2 || '_' || g, md5('secret' || $2 || g), 150, 0, 1350,
         case when g % 50 = 0 then 1500 else 0 end, paid_at,
         case when g % 50 = 0 then paid_at + interval '1 day' end, paid_at - interval '2 minutes', now()
       from (select g, now() - (g::double precision / $4::int) * interval '365 days' as paid_at
             from generate_series(1, $4::int) g) s`,
      [creatorId, run, linkIds, orders],
    );
    await client.query(
      `insert into customers (creator_id, email, first_paid_at, last_paid_at, orders_count)
       select creator_id, buyer_email, min(paid_at), max(paid_at), count(*)::int
       from orders where creator_id = $1 group by creator_id, buyer_email`,
      [creatorId],
    );
    await client.query(
      `update links l set sales_count = s.n from (select link_id, count(*)::int as n from orders
       where creator_id = $1 group by link_id) s where l.id = s.link_id`,
      [creatorId],
    );
    const cookie = await insertSession(client, creatorId);
    await client.query("commit");
    // As autovacuum leaves them: the visibility map lets index-only scans skip the rows.
    await client.query("vacuum analyze orders, customers, links");
    const count = await client.query("select count(*)::int as n from customers where creator_id = $1", [
      creatorId,
    ]);
    return {
      creatorId,
      cookie,
      linkIds,
      orders,
      customers: Number(count.rows[0]?.n ?? 0),
      // "buyer-<run>-1234": 1234 and 12340–12349 … when there are that many addresses.
      search: `${run}-1234`,
      seconds: (Date.now() - started) / 1000,
    };
  });
}
