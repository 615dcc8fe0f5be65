import { randomBytes } from "node:crypto";
import {
  bankAccountSchema,
  type CheckoutResponse,
  checkoutResponseSchema,
  creatorProfileSchema,
  errorResponseSchema,
  type Link,
  linkSchema,
  sandboxCards,
} from "@salelink/contracts";
import { eq } from "drizzle-orm";
import type { Database } from "../../src/db/client.ts";
import { users } from "../../src/db/schema/index.ts";
import { directSessionCookie, insertAccount, insertApprovedIdentity } from "../support/accounts.ts";
import { type Answer, http, type ProviderEvent, providerEvent, sleep } from "./helpers.ts";

/*
 * The people and the traffic of the fault tests, against a server reached over HTTP that may die
 * under any call: a call without an answer is an unknown outcome, never a failure by itself, but an
 * answer outside the expected ones (a 500 above all) is recorded and fails the test.
 */

export interface Person {
  id: string;
  cookie: string;
}
export interface Creator extends Person {
  link: Link;
  bankAccountId: string;
}

type Options = Parameters<typeof http>[3];

export class FaultShop {
  /** Checkouts started and answered: each buyer has a payment to pay. */
  readonly checkouts: CheckoutResponse[] = [];
  /** Every event the provider sent; it delivers each until it gets a 2xx. */
  readonly sentEvents: ProviderEvent[] = [];
  /** Answers no client should ever get, e.g. a 500 while the database is up. */
  readonly unexpected: string[] = [];
  /** Calls answered so far: the kills wait for some progress, however slow the machine. */
  answered = 0;

  constructor(
    private readonly database: Database,
    readonly base: () => string,
  ) {}

  /** A call; an answer outside `ok` is recorded as unexpected. Null when the server died first. */
  async call(method: "GET" | "POST", url: string, options: Options, ok: number[]): Promise<Answer | null> {
    const answer = await http(this.base(), method, url, options);
    if (answer) this.answered++;
    if (answer && !ok.includes(answer.status)) {
      this.unexpected.push(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    } else if (answer && answer.status >= 400 && !errorResponseSchema.safeParse(answer.body).success) {
      this.unexpected.push(`${method} ${url}: ${answer.status} not in the error format`);
    }
    return answer;
  }

  /** Retries until the server answers something other than a 5xx, as a client does after a crash. */
  async retried(call: () => Promise<Answer | null>, what: string): Promise<Answer> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const answer = await call();
      if (answer && answer.status < 500) return answer;
      await sleep(100);
    }
    throw new Error(`${what}: no answer after 50 attempts`);
  }

  async person(referredByCampaign?: string): Promise<Person> {
    const account = await insertAccount(this.database, { onboarded: true });
    if (referredByCampaign) {
      await this.database.db
        .update(users)
        .set({ referredByCampaignId: referredByCampaign })
        .where(eq(users.id, account.id));
    }
    return { id: account.id, cookie: await directSessionCookie(this.database, account.id) };
  }

  /** An onboarded creator with an approved identity, a bank account and a link on sale. */
  async creator(referredByCampaign?: string): Promise<Creator> {
    const p = await this.person(referredByCampaign);
    await insertApprovedIdentity(this.database, p.id);
    const created = async (url: string, body: object) => {
      const answer = await this.call("POST", url, { cookie: p.cookie, body }, [201]);
      if (answer?.status !== 201) throw new Error(`${url}: ${JSON.stringify(answer)}`);
      return answer.body;
    };
    const bank = bankAccountSchema.parse(
      await created("/profile/bank-accounts", { holderName: "Ada Lovelace", iban: "DE89370400440532013000" }),
    );
    const profile = creatorProfileSchema.parse(
      await created("/profiles", { displayName: "Ada", handle: `h_${randomBytes(5).toString("hex")}` }),
    );
    const link = linkSchema.parse(
      await created("/links", {
        profileId: profile.id,
        title: "Sunset pack",
        priceMinor: 2000,
        currency: "EUR",
      }),
    );
    return { ...p, link, bankAccountId: bank.id };
  }

  /** A buyer starts a checkout; null when the server died first (nothing was charged). */
  async startCheckout(link: Link, buyer: string): Promise<CheckoutResponse | null> {
    const answer = await this.call(
      "POST",
      "/stripe/checkout",
      { body: { token: link.token, email: `${buyer}@example.test`, locale: "en" } },
      [201],
    );
    if (answer?.status !== 201) return null;
    const started = checkoutResponseSchema.parse(answer.body);
    this.checkouts.push(started);
    return started;
  }

  /** The buyer pays on the sandbox's card form; its event then goes out through the jobs. */
  payWithCard(started: CheckoutResponse): Promise<Answer | null> {
    return this.call(
      "POST",
      `/sandbox/payments/${started.paymentId}/confirm`,
      { body: { card: sandboxCards.success, expiry: "12/34", cvc: "123" } },
      [200],
    );
  }

  /** The provider reports a payment, delivering its event `times` times at once (a retry after a timeout). */
  async reportPaid(started: CheckoutResponse, times: number): Promise<boolean> {
    const event = providerEvent({
      paymentId: started.paymentId,
      orderId: started.orderId,
      amountMinor: started.total,
      currency: started.currency,
    });
    this.sentEvents.push(event);
    const answers = await Promise.all(Array.from({ length: times }, () => this.deliver(event)));
    return answers.every((a) => a !== null);
  }

  deliver(event: ProviderEvent): Promise<Answer | null> {
    return event.deliver(this.base()).then((answer) => {
      if (answer) this.answered++;
      if (answer && answer.status !== 200) this.unexpected.push(`webhook ${event.id}: ${answer.status}`);
      return answer;
    });
  }

  /** The provider's retries: each event it ever sent, until it gets a 2xx. */
  async redeliverAll(): Promise<void> {
    for (const event of this.sentEvents) await this.retried(() => this.deliver(event), `webhook ${event.id}`);
  }
}
