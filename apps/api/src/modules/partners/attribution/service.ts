import type { PartnerBlockReason, PartnerVia } from "@salelink/contracts";
import type { Config } from "../../../config.ts";
import type { DbOrTx } from "../../../db/client.ts";
import { TtlCache } from "../../../lib/ttl-cache.ts";
import { sharedSignal } from "../../affiliates/self-referral/service.ts";
import { normaliseEmail } from "../../affiliates/self-referral/signals.ts";
import { activeMembershipsByCodes, linkRateOf } from "./queries.ts";

/*
 * A sale's attribution to a partner (decision 035). The visitor's browser keeps the `?via=` codes it
 * followed with the time of each; checkout sends them, and the newest one that belongs to the
 * creator's programme now, within that programme's window, wins (last click wins). Unknown codes,
 * removed partners and other creators' codes attribute nothing, silently. The rate is the link's own
 * or the programme's default, as it stands now: it is stored on the order, so a later change never
 * touches this sale.
 */

/** What checkout records on the pending order. */
export interface PartnerAttribution {
  partnerMembershipId: string;
  partnerId: string;
  partnerRateBps: number;
  /** Why it earns nothing, when it does not (the creator sees it). */
  partnerBlocked: PartnerBlockReason | null;
}

/** A click's time from the browser's clock may run a little ahead of ours. */
const clockSkewMs = 5 * 60_000;
const dayMs = 86_400_000;

type Candidates = Awaited<ReturnType<typeof activeMembershipsByCodes>>;

/**
 * What attributing reads, kept `PARTNER_ATTRIBUTION_CACHE_MS` in memory: a launch's buyers follow
 * one partner's link by the thousand, and three reads per checkout cost a third of its rate
 * (measured, docs/benchmarks.md). A change shows within that time (at once with 0).
 */
export class PartnerAttributions {
  private readonly candidates: TtlCache<Candidates>;
  private readonly rates: TtlCache<number | null>;
  private readonly signals: TtlCache<boolean>;

  constructor(
    private readonly db: DbOrTx,
    config: Pick<Config, "PARTNER_ATTRIBUTION_CACHE_MS">,
  ) {
    const options = { ttlMs: config.PARTNER_ATTRIBUTION_CACHE_MS, maxEntries: 10_000 };
    this.candidates = new TtlCache(options);
    this.rates = new TtlCache(options);
    this.signals = new TtlCache(options);
  }

  /** A programme, a rate or a membership changed on this instance: it shows on the next checkout. */
  forget(): void {
    this.candidates.clear();
    this.rates.clear();
    this.signals.clear();
  }

  /** The attribution of a checkout of `linkId` by `buyerEmail`, or null. */
  async attribute(
    sale: { creatorId: string; linkId: string; buyerEmail: string; via: PartnerVia[] | undefined },
    now: Date = new Date(),
  ): Promise<PartnerAttribution | null> {
    const followed = (sale.via ?? []).filter((v) => v.at <= now.getTime() + clockSkewMs);
    if (followed.length === 0) return null;
    const codes = [...new Set(followed.map((v) => v.code))].sort();
    const candidates = await this.candidates.get(`${sale.creatorId}|${codes.join(",")}`, () =>
      activeMembershipsByCodes(this.db, { creatorId: sale.creatorId, codes }),
    );
    if (candidates.length === 0) return null;
    // Newest click first, whatever order the browser sent them in.
    const winner = [...followed]
      .sort((a, b) => b.at - a.at)
      .flatMap((v) => {
        const m = candidates.find((c) => c.code === v.code);
        return m && now.getTime() - v.at <= m.windowDays * dayMs ? [m] : [];
      })[0];
    if (!winner) return null;

    const linkRate = await this.rates.get(`${sale.creatorId}|${sale.linkId}`, () =>
      linkRateOf(this.db, { creatorId: sale.creatorId, linkId: sale.linkId }),
    );
    let blocked: PartnerBlockReason | null = null;
    if (normaliseEmail(sale.buyerEmail) === normaliseEmail(winner.partnerEmail)) blocked = "self-purchase";
    else if (
      await this.signals.get(`${winner.partnerId}|${sale.creatorId}`, async () =>
        Boolean(
          await sharedSignal(
            this.db,
            { id: winner.partnerId, email: winner.partnerEmail },
            { id: sale.creatorId, email: winner.creatorEmail },
          ),
        ),
      )
    ) {
      blocked = "shared-signals";
    }
    return {
      partnerMembershipId: winner.membershipId,
      partnerId: winner.partnerId,
      partnerRateBps: linkRate ?? winner.defaultRateBps,
      partnerBlocked: blocked,
    };
  }
}
