"use client";

import { type Payout, transferListSchema } from "@salelink/contracts/payouts";
import { useLocale, useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { ListStates, LoadMore } from "@/components/ui/list-states.tsx";
import { api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";

const PAGE_SIZE = 20;

/** My payouts, newest first: where each one is, when it got there, and why one failed. */
export function Transfers({
  version,
}: {
  /** Bumped after a withdrawal: the list is read again. */ version: number;
}) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const [items, setItems] = useState<Payout[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);

  const load = useCallback((signal?: AbortSignal) => {
    setFailed(false);
    setMoreFailed(false);
    api(`/profile/transfers?limit=${PAGE_SIZE}`, { schema: transferListSchema, signal })
      .then((page) => {
        setItems(page.items);
        setNextCursor(page.nextCursor);
      })
      .catch(() => {
        if (!signal?.aborted) setFailed(true);
      });
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reason to read the list again.
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load, version]);

  async function loadMore() {
    if (!nextCursor) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await api(`/profile/transfers?limit=${PAGE_SIZE}&cursor=${nextCursor}`, {
        schema: transferListSchema,
      });
      // A payout requested meanwhile is on the first page already; never list one twice.
      setItems((current) => {
        const known = new Set((current ?? []).map((p) => p.id));
        return [...(current ?? []), ...page.items.filter((p) => !known.has(p.id))];
      });
      setNextCursor(page.nextCursor);
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  }

  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const when = (iso: string) => <time dateTime={iso}>{dateTime.format(new Date(iso))}</time>;

  return (
    <section className="wallet-section" aria-labelledby="payouts-history">
      <h2 id="payouts-history">{t("historyTitle")}</h2>
      <ListStates
        items={items}
        failed={failed}
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
                    {p.status === "failed" && (
                      <p className="payout-failure">
                        {p.failureReason
                          ? t("failureReason", { reason: p.failureReason })
                          : t("failureNoReason")}{" "}
                        {t("failureReturned")}
                      </p>
                    )}
                  </li>
                );
              })}
            </ul>
            {nextCursor !== null && (
              <LoadMore
                className="tx-more"
                pending={loadingMore}
                failed={moreFailed}
                onClick={loadMore}
                texts={{ more: t("loadMore"), loading: t("loadingMore"), failed: t("moreFailed") }}
              />
            )}
          </>
        )}
      </ListStates>
      {failed && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
          {t("retry")}
        </button>
      )}
    </section>
  );
}
