/**
 * Every client-side query's key, in one place: a screen reads with one of these and a write
 * invalidates by it (a prefix invalidates every key under it: `admin.payouts` all its filters).
 */
export const queryKeys = {
  wallet: ["wallet"],
  salesSummary: ["sales", "summary"],
  /** One sale as its creator sees it, with its refunds (issue 21); read again while one is under way. */
  sale: (id: string) => ["sale", id],
  transactions: ["transactions"],
  payoutEligibility: ["payouts", "eligibility"],
  bankAccounts: ["payouts", "bank-accounts"],
  transfers: ["payouts", "transfers"],
  /** The payout schedule and what blocked its last run (issue 23). */
  payoutSchedule: ["payouts", "schedule"],
  /** One payout with its timeline (issue 23). */
  payout: (id: string) => ["payouts", "one", id],
  identity: ["identity"],
  sandboxIdentity: (sessionId: string) => ["identity-sandbox", sessionId],
  storageUsage: ["storage-usage"],
  /** The paged list under it, and `myLinks` (every link, for pickers): a write invalidates both. */
  links: ["links"],
  myLinks: ["links", "all"],
  profiles: ["profiles"],
  portfolio: (profileId: string) => ["portfolio", profileId],
  runtimeConfig: ["runtime-config"],
  devMail: ["dev", "mail"],
  promoCodes: ["promo-codes"],
  /** How the account hears of its sales (issue 21). */
  notifications: ["profile", "notifications"],
  /** The account's own library (issue 21): what its verified address bought. */
  purchases: ["purchases"],
  /** The creator's customers (issue 21): every filter and page of the list, and one customer. */
  customers: {
    list: ["customers", "list"],
    one: (id: string) => ["customers", "one", id],
  },
  /** The creator's updates to buyers (issue 21): the list, and who one would reach per link ("" all). */
  updates: {
    list: ["updates", "list"],
    audience: (linkId: string) => ["updates", "audience", linkId],
  },
  /** A claim changes every figure under `all`. */
  affiliates: {
    all: ["affiliates"],
    campaigns: ["affiliates", "campaigns"],
    referrals: ["affiliates", "referrals"],
    earnings: ["affiliates", "earnings"],
    stats: (campaignId: string) => ["affiliates", "stats", campaignId],
  },
  /** The creator's partner programme: its settings, partners and invitations. */
  partners: {
    all: ["partners"],
    programme: ["partners", "programme"],
    /** Every filter, order and page of the partners table under it. */
    list: ["partners", "list"],
    invitations: ["partners", "invitations"],
  },
  /** My programmes as a partner: a claim or a join changes every figure under `all`. */
  programmes: {
    all: ["programmes"],
    list: ["programmes", "list"],
    membership: (membershipId: string, days: number) => ["programmes", "membership", membershipId, days],
  },
  admin: {
    overview: ["admin", "overview"],
    accounts: ["admin", "accounts"],
    account: (id: string) => ["admin", "account", id],
    payouts: ["admin", "payouts"],
    payoutMismatches: ["admin", "payout-mismatches"],
    reports: ["admin", "reports"],
    orders: ["admin", "orders"],
    identity: ["admin", "identity"],
    audit: ["admin", "audit"],
    vat: (quarter: string) => ["admin", "vat", quarter],
    referralFlags: ["admin", "referral-flags"],
    maintenance: ["admin", "maintenance"],
    /** What users owe (issue 32): the list with its totals; a write-off reads it again. */
    debts: ["admin", "debts"],
    /** Every status filter and page of the disputes list (issue 32). */
    disputes: ["admin", "disputes"],
  },
} as const;
