/*
 * The Connect part of the fake Stripe: Custom accounts (`POST /v1/accounts`, `GET|POST
 * /v1/accounts/:id`, with their payout schedule), their external bank accounts
 * (`POST /v1/accounts/:id/external_accounts`), Transfers from the platform (`POST /v1/transfers`,
 * `GET /v1/transfers/:id`, `GET /v1/transfers?transfer_group=`), their reversals
 * (`POST /v1/transfers/:id/reversals`), a connected account's balance (`GET /v1/balance` with the
 * Stripe-Account header) and its Payouts (`POST /v1/payouts`, on the account of that header).
 *
 * The balance is what Stripe's would be without card payments on the account: per currency, the
 * transfers received, less their reversals, less the payouts that have not failed (a failed or
 * canceled payout's money is back on the account). A payout or a reversal the balance cannot cover is
 * refused as Stripe refuses it. Nothing is paid out automatically, whatever the schedule: a test
 * settles a payout with `payPayout` or `failPayout`, which send `payout.paid` / `payout.failed` as
 * Connect events (the connected account in the event's `account`).
 */

interface StripeErrorBody {
  type: string;
  message: string;
  code?: string;
}
type Result = { status: number; body: unknown };
type Params = Record<string, string>;
type StripeObject = Record<string, unknown>;

export interface ConnectDeps {
  nextId(prefix: string): string;
  stripeError(status: number, error: StripeErrorBody): Result;
  missing(what: string, id: string | undefined): Result;
  metadataOf(params: Params): Record<string, string>;
  /** Sends an event as Stripe's webhook would (and records it); `account` for a connected account's. */
  deliver(type: string, object: StripeObject, account?: string): void;
}

const now = () => Math.floor(Date.now() / 1000);
/** Stripe's payout schedule intervals; `daily` is Stripe's default for a new account. */
const INTERVALS = ["manual", "daily", "weekly", "monthly"];
const INTERVAL_PARAM = "settings[payouts][schedule][interval]";
/** A Custom account's default currency, before it holds anything (the balance lists it at 0). */
const DEFAULT_CURRENCY: Record<string, string> = { US: "usd", GB: "gbp", CH: "chf" };
/** Stripe's page size when `limit` is not given. */
const DEFAULT_LIMIT = 10;

/*
 * Roughly Stripe's checks of a bank account given as a dictionary: a country/currency pairing it
 * pays out (here: USD in the US, GBP or EUR in the UK, CHF or EUR in Switzerland, EUR elsewhere);
 * in the US an ABA routing number (nine digits, its check digit) and 4 to 17 digits of account
 * number; in the UK a six-digit sort code and an eight-digit account number, or an IBAN; elsewhere an
 * IBAN of that country.
 */
const payoutCurrencies: Record<string, string[]> = { US: ["usd"], GB: ["gbp", "eur"], CH: ["chf", "eur"] };
const abaValid = (routing: string) => {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return d.reduce((sum, digit, i) => sum + digit * (weights[i] ?? 0), 0) % 10 === 0;
};

export function connectRoutes(deps: ConnectDeps) {
  const accounts = new Map<string, StripeObject>();
  const externalAccounts = new Map<string, StripeObject>();
  const transfers = new Map<string, StripeObject>();
  const reversals = new Map<string, StripeObject>();
  const payouts = new Map<string, StripeObject>();
  const { nextId, stripeError, missing, metadataOf } = deps;
  const invalid = (message: string, code?: string) =>
    stripeError(400, { type: "invalid_request_error", message, ...(code ? { code } : {}) });
  const positiveAmount = (params: Params) => {
    const amount = Number(params.amount);
    return Number.isInteger(amount) && amount > 0 ? amount : null;
  };
  const insufficient = () =>
    invalid("You have insufficient funds in your Stripe account for this transfer.", "balance_insufficient");

  /** What a connected account holds, per lowercase currency, in minor units. */
  const balanceOf = (accountId: string) => {
    const balance = new Map<string, number>();
    const add = (currency: unknown, amount: number) =>
      balance.set(String(currency), (balance.get(String(currency)) ?? 0) + amount);
    for (const t of transfers.values())
      if (t.destination === accountId) add(t.currency, Number(t.amount) - Number(t.amount_reversed));
    for (const p of payouts.values())
      if (p.account === accountId && p.status !== "failed" && p.status !== "canceled")
        add(p.currency, -Number(p.amount));
    return balance;
  };

  const scheduleProblem = (params: Params) => {
    const interval = params[INTERVAL_PARAM];
    return interval !== undefined && !INTERVALS.includes(interval)
      ? invalid(
          `Invalid ${INTERVAL_PARAM}: must be one of ${INTERVALS.join(", ")}`,
          "parameter_invalid_string",
        )
      : null;
  };

  const createAccount = (params: Params): Result => {
    if (params.type !== "custom" || !params.country)
      return invalid("Missing required param: country.", "parameter_missing");
    const problem = scheduleProblem(params);
    if (problem) return problem;
    const account = {
      id: nextId("acct"),
      object: "account",
      type: params.type,
      country: params.country,
      business_type: params.business_type ?? null,
      capabilities: { transfers: params["capabilities[transfers][requested]"] === "true" ? "pending" : null },
      settings: { payouts: { schedule: { interval: params[INTERVAL_PARAM] ?? "daily" } } },
      metadata: metadataOf(params),
      created: now(),
    };
    accounts.set(account.id, account);
    return { status: 200, body: account };
  };

  const updateAccount = (accountId: string, params: Params): Result => {
    const account = accounts.get(accountId);
    if (!account) return missing("account", accountId);
    const problem = scheduleProblem(params);
    if (problem) return problem;
    const interval = params[INTERVAL_PARAM];
    if (interval !== undefined) account.settings = { payouts: { schedule: { interval } } };
    account.metadata = { ...(account.metadata as Record<string, string>), ...metadataOf(params) };
    return { status: 200, body: account };
  };

  const bankAccountProblem = (params: Params) => {
    const country = params["external_account[country]"] ?? "";
    const currency = params["external_account[currency]"] ?? "";
    const number = params["external_account[account_number]"] ?? "";
    const routing = params["external_account[routing_number]"];
    const type = params["external_account[account_type]"];
    if (!/^[A-Z]{2}$/.test(country))
      return invalid("Missing required param: external_account[country].", "parameter_missing");
    if (!(payoutCurrencies[country] ?? ["eur"]).includes(currency))
      return invalid(
        `Currency ${currency} is not supported for bank accounts in ${country}.`,
        "invalid_request_error",
      );
    if (country === "US") {
      if (!routing || !abaValid(routing))
        return invalid(
          "Routing number must have 9 digits and a valid check digit.",
          "routing_number_invalid",
        );
      if (!/^\d{4,17}$/.test(number))
        return invalid("The account number you provided appears to be invalid.", "account_number_invalid");
      if (type !== undefined && type !== "checking" && type !== "savings")
        return invalid(`Invalid account_type: ${type}.`, "invalid_request_error");
      return null;
    }
    if (country === "GB" && routing !== undefined) {
      if (!/^\d{6}$/.test(routing))
        return invalid("The sort code you provided appears to be invalid.", "routing_number_invalid");
      if (!/^\d{8}$/.test(number))
        return invalid("The account number you provided appears to be invalid.", "account_number_invalid");
      return null;
    }
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(number) || !number.startsWith(country))
      return invalid("The IBAN you provided appears to be invalid.", "invalid_bank_account_iban");
    return null;
  };

  const createExternalAccount = (accountId: string, params: Params): Result => {
    if (!accounts.has(accountId)) return missing("account", accountId);
    const problem = bankAccountProblem(params);
    if (problem) return problem;
    const number = params["external_account[account_number]"] ?? "";
    const bank = {
      id: nextId("ba"),
      object: "bank_account",
      account: accountId,
      country: params["external_account[country]"],
      currency: params["external_account[currency]"],
      routing_number: params["external_account[routing_number]"] ?? null,
      account_type: params["external_account[account_type]"] ?? null,
      account_holder_name: params["external_account[account_holder_name]"] ?? null,
      last4: number.slice(-4),
      metadata: metadataOf(params),
    };
    externalAccounts.set(bank.id, bank);
    return { status: 200, body: bank };
  };

  const createTransfer = (params: Params): Result => {
    const amount = positiveAmount(params);
    if (amount === null) return invalid("Invalid integer: amount");
    if (!accounts.has(params.destination ?? "")) return missing("destination", params.destination);
    const id = nextId("tr");
    const transfer = {
      id,
      object: "transfer",
      amount,
      amount_reversed: 0,
      reversed: false,
      currency: params.currency,
      destination: params.destination,
      transfer_group: params.transfer_group ?? null,
      reversals: { object: "list", data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
      metadata: metadataOf(params),
      created: now(),
    };
    transfers.set(id, transfer);
    return { status: 200, body: transfer };
  };

  /** Newest first, as Stripe lists; `transfer_group` and `destination` filter. */
  const listTransfers = (params: Params): Result => {
    const limit = params.limit === undefined ? DEFAULT_LIMIT : Number(params.limit);
    const matching = [...transfers.values()]
      .filter((t) => params.transfer_group === undefined || t.transfer_group === params.transfer_group)
      .filter((t) => params.destination === undefined || t.destination === params.destination)
      .reverse();
    return {
      status: 200,
      body: {
        object: "list",
        data: matching.slice(0, limit),
        has_more: matching.length > limit,
        url: "/v1/transfers",
      },
    };
  };

  /** Takes (part of) a transfer back from the connected account, which must still hold it. */
  const reverseTransfer = (transferId: string, params: Params): Result => {
    const transfer = transfers.get(transferId);
    if (!transfer) return missing("transfer", transferId);
    const left = Number(transfer.amount) - Number(transfer.amount_reversed);
    if (left === 0) return invalid(`Transfer ${transferId} has already been fully reversed.`);
    const amount = params.amount === undefined ? left : positiveAmount(params);
    if (amount === null) return invalid("Invalid integer: amount");
    if (amount > left)
      return invalid(
        `Transfer reversal amount (${amount}) is greater than the amount remaining on the transfer (${left}).`,
      );
    if (amount > (balanceOf(String(transfer.destination)).get(String(transfer.currency)) ?? 0))
      return insufficient();
    const reversal = {
      id: nextId("trr"),
      object: "transfer_reversal",
      amount,
      currency: transfer.currency,
      transfer: transferId,
      balance_transaction: null,
      destination_payment_refund: null,
      source_refund: null,
      metadata: metadataOf(params),
      created: now(),
    };
    reversals.set(reversal.id, reversal);
    transfer.amount_reversed = Number(transfer.amount_reversed) + amount;
    transfer.reversed = transfer.amount_reversed === transfer.amount;
    (transfer.reversals as { data: StripeObject[] }).data.unshift(reversal);
    return { status: 200, body: reversal };
  };

  const readBalance = (stripeAccount: string | undefined): Result => {
    const account = accounts.get(stripeAccount ?? "");
    if (!account)
      // The platform's own balance is not kept: only connected accounts' are.
      return stripeAccount
        ? stripeError(403, {
            type: "invalid_request_error",
            code: "account_invalid",
            message: `The provided key does not have access to account '${stripeAccount}' (or that account does not exist).`,
          })
        : invalid("The fake Stripe keeps connected accounts' balances only: send a Stripe-Account header.");
    const balance = balanceOf(String(account.id));
    if (balance.size === 0) balance.set(DEFAULT_CURRENCY[String(account.country)] ?? "eur", 0);
    return {
      status: 200,
      body: {
        object: "balance",
        available: [...balance].map(([currency, amount]) => ({ amount, currency })),
        pending: [],
        livemode: false,
      },
    };
  };

  const createPayout = (stripeAccount: string | undefined, params: Params): Result => {
    const amount = positiveAmount(params);
    if (amount === null) return invalid("Invalid integer: amount");
    if (!stripeAccount || !accounts.has(stripeAccount)) return missing("account", stripeAccount);
    const bank = externalAccounts.get(params.destination ?? "");
    if (!bank || bank.account !== stripeAccount) return missing("external account", params.destination);
    if (bank.currency !== params.currency)
      return invalid(
        `The currency of the bank account (${String(bank.currency)}) does not match the currency of the payout (${params.currency}).`,
        "invalid_request_error",
      );
    if (amount > (balanceOf(stripeAccount).get(params.currency ?? "") ?? 0)) return insufficient();
    const payout = {
      id: nextId("po"),
      object: "payout",
      // Not a field of Stripe's payout: the fake's note of the connected account it was made on.
      account: stripeAccount,
      amount,
      currency: params.currency,
      destination: bank.id,
      status: "pending",
      failure_code: null,
      failure_message: null,
      metadata: metadataOf(params),
      created: now(),
    };
    payouts.set(payout.id, payout);
    return { status: 200, body: payout };
  };

  const pendingPayout = (id: string) => {
    const payout = payouts.get(id);
    if (!payout) throw new Error(`fake Stripe: no payout ${id}`);
    if (payout.status !== "pending" && payout.status !== "in_transit")
      throw new Error(`fake Stripe: payout ${id} is already ${String(payout.status)}`);
    return payout;
  };

  return {
    accounts,
    externalAccounts,
    transfers,
    reversals,
    payouts,
    /** The bank took the payout: `payout.paid` on the connected account. */
    payPayout(id: string) {
      const payout = pendingPayout(id);
      payout.status = "paid";
      deps.deliver("payout.paid", payout, String(payout.account));
      return payout;
    },
    /** The bank sent the payout back: its money is on the connected account again. */
    failPayout(id: string, failure: { code?: string; message?: string } = {}) {
      const payout = pendingPayout(id);
      Object.assign(payout, {
        status: "failed",
        failure_code: failure.code ?? "account_closed",
        failure_message: failure.message ?? "The bank account has been closed.",
      });
      deps.deliver("payout.failed", payout, String(payout.account));
      return payout;
    },
    /**
     * The bank sends a paid payout back days later (Stripe's documented `payout.failed` after
     * `payout.paid`): its money is on the connected account again.
     */
    returnPaidPayout(id: string, failure: { code?: string; message?: string } = {}) {
      const payout = payouts.get(id);
      if (payout?.status !== "paid") throw new Error(`fake Stripe: payout ${id} is not paid`);
      Object.assign(payout, {
        status: "failed",
        failure_code: failure.code ?? "account_closed",
        failure_message: failure.message ?? "The bank account has been closed.",
      });
      deps.deliver("payout.failed", payout, String(payout.account));
      return payout;
    },
    clear() {
      for (const map of [accounts, externalAccounts, transfers, reversals, payouts]) map.clear();
    },
    handle(route: string, params: Params, stripeAccount: string | undefined): Result | null {
      if (route === "POST /v1/accounts") return createAccount(params);
      if (route === "POST /v1/transfers") return createTransfer(params);
      if (route === "GET /v1/transfers") return listTransfers(params);
      if (route === "POST /v1/payouts") return createPayout(stripeAccount, params);
      if (route === "GET /v1/balance") return readBalance(stripeAccount);
      const account = /^(GET|POST) \/v1\/accounts\/([^/]+)(\/external_accounts)?$/.exec(route);
      if (account?.[2]) {
        const id = decodeURIComponent(account[2]);
        if (account[3]) return account[1] === "POST" ? createExternalAccount(id, params) : null;
        if (account[1] === "POST") return updateAccount(id, params);
        return accounts.has(id) ? { status: 200, body: accounts.get(id) } : missing("account", id);
      }
      const transfer = /^(GET|POST) \/v1\/transfers\/([^/]+)(\/reversals)?$/.exec(route);
      if (transfer?.[2]) {
        const id = decodeURIComponent(transfer[2]);
        if (transfer[3]) return transfer[1] === "POST" ? reverseTransfer(id, params) : null;
        if (transfer[1] === "GET")
          return transfers.has(id) ? { status: 200, body: transfers.get(id) } : missing("transfer", id);
      }
      return null;
    },
  };
}
