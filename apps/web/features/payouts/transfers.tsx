"use client";

import { transferListSchema } from "@salelink/contracts/payouts";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { ListStates, LoadMore } from "@/components/ui/list-states.tsx";
import { pageUrl, usePagedList } from "@/components/ui/use-paged-list.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";

const PAGE_SIZE = 20;

/**
 * My payouts, newest first: where each one is, who started it (me or my schedule), the rules that
 * hold it for a review, why one failed, and a link to its timeline. A withdrawal invalidates
 * `queryKeys.transfers`: the list is read again.
 */
export function Transfers() {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const list = usePagedList({
    queryKey: queryKeys.transfers,
    schema: transferListSchema,
    key: "/profile/transfers",
    url: (path, cursor) => pageUrl(path, PAGE_SIZE, cursor),
  });

  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const when = (iso: string) => <time dateTime={iso}>{dateTime.format(new Date(iso))}</time>;

  return (
    <section className="wallet-section" aria-labelledby="payouts-history">
      <h2 id="payouts-history">{t("historyTitle")}</h2>
      <ListStates
        items={list.items}
        failed={list.failed}
        texts={{
          failed: t("historyLoadFailed"),
          loading: t("historyLoading"),
          empty: t("historyEmpty"),
          emptyHint: t("historyEmptyHint"),
        }}
        action={null}
      >
        {(payouts) => (
          <>
            <ul className="payout-list" aria-labelledby="payouts-history">
              {payouts.map((p) => {
                const amount = formatMoney(p.amount, p.currency, locale);
                return (
                  <li
                    key={p.id}
                    className="card payout-item"
                    data-status={p.status}
                    aria-label={t("payoutLabel", { amount, status: t(`status.${p.status}`) })}
                  >
                    <div className="payout-what">
                      <strong className="payout-amount">{amount}</strong>
                      <span className="muted">
                        {t("payoutTo", { iban: p.bankAccount.ibanMasked, holder: p.bankAccount.holderName })}
                      </span>
                      <span className="payout-origin" data-origin={p.origin}>
                        {t(`origin.${p.origin}`)}
                      </span>
                    </div>
                    <div className="payout-when">
                      <span className="payout-badge" data-status={p.status}>
                        {t(`status.${p.status}`)}
                      </span>
                      <small>
                        {t("requestedOn")} {when(p.requestedAt)}
                      </small>
                      {p.processingAt && p.status === "processing" && (
                        <small>
                          {t("processingSince")} {when(p.processingAt)}
                        </small>
                      )}
                      {p.paidAt && (
                        <small>
                          {t("paidOn")} {when(p.paidAt)}
                        </small>
                      )}
                      {p.failedAt && (
                        <small>
                          {t("failedOn")} {when(p.failedAt)}
                        </small>
                      )}
                    </div>
                    {p.heldRules.length > 0 && p.status === "requested" && (
                      <p className="payout-held">
                        {t("heldBy", {
                          rules: new Intl.ListFormat(locale, { type: "conjunction" }).format(
                            p.heldRules.map((rule) => t(`rules.${rule}`)),
                          ),
                        })}
                      </p>
                    )}
                    {p.status === "failed" && (
                      <p className="payout-failure">
                        {p.failureReason
                          ? t("failureReason", { reason: p.failureReason })
                          : t("failureNoReason")}{" "}
                        {t("failureReturned")}
                      </p>
                    )}
                    <p className="payout-more">
                      <Link href={`/account/payouts/${p.id}`} aria-label={t("timelineOf", { amount })}>
                        {t("timelineLink")}
                      </Link>
                    </p>
                  </li>
                );
              })}
            </ul>
            {list.nextCursor !== null && (
              <LoadMore
                className="tx-more"
                pending={list.loadingMore}
                failed={list.moreFailed}
                onClick={list.loadMore}
                texts={{ more: t("loadMore"), loading: t("loadingMore"), failed: t("moreFailed") }}
              />
            )}
          </>
        )}
      </ListStates>
      {list.failed && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={list.reload}>
          {t("retry")}
        </button>
      )}
    </section>
  );
}
