"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import {
  type AdminDebt,
  type AdminDebtList,
  adminDebtListSchema,
  debtWriteOffResultSchema,
} from "@salelink/contracts/debts";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { failureMessage, formatDate } from "./admin-format.ts";
import { ReasonDialog } from "./reason-dialog.tsx";

/**
 * /admin/debts (issue 32, decision 042): what accounts owe the platform because a refund or a
 * chargeback found their money already paid out: who, how much, since when and from which sales,
 * the totals per currency and what was written off; an operator writes one off with a reason.
 */
export function DebtsScreen() {
  const t = useTranslations("adminOps.debts");
  const locale = useLocale();
  const client = useQueryClient();
  const { data, failed, reload } = useApiQuery(queryKeys.admin.debts, "/admin/debts", adminDebtListSchema);
  const [writingOff, setWritingOff] = useState<AdminDebt | null>(null);

  async function writeOff(debt: AdminDebt, reason: string): Promise<string | null> {
    try {
      const { amount } = await api("/admin/debts/write-off", {
        method: "POST",
        body: { userId: debt.user.id, currency: debt.currency, reason },
        schema: debtWriteOffResultSchema,
      });
      toast.success(t("writtenOffToast"), {
        description: t("writtenOffText", {
          amount: formatMoney(amount, debt.currency, locale),
          email: debt.user.email,
        }),
      });
      void client.invalidateQueries({ queryKey: queryKeys.admin.debts });
      return null;
    } catch (err) {
      // 409: repaid or written off meanwhile; the list shows it as it is now.
      if (err instanceof ApiError && err.status === 409)
        void client.invalidateQueries({ queryKey: queryKeys.admin.debts });
      return failureMessage(err, t("writeOffFailed"));
    }
  }

  return (
    <section className="admin-debts">
      <h1 id="admin-debts-title">{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {failed ? (
        <LoadFailed message={t("loadFailed")} retry={t("retry")} onRetry={reload} />
      ) : data === null ? (
        <p aria-busy="true" className="muted">
          {t("loading")}
        </p>
      ) : (
        <>
          <DebtTotals list={data} />
          {data.items.length === 0 ? (
            <div className="card empty-state">
              <p>
                <strong>{t("empty")}</strong>
              </p>
              <p className="muted">{t("emptyHint")}</p>
            </div>
          ) : (
            <DebtTable items={data.items} onWriteOff={setWritingOff} />
          )}
        </>
      )}
      {writingOff && (
        <WriteOffDialog debt={writingOff} onClose={() => setWritingOff(null)} onConfirm={writeOff} />
      )}
    </section>
  );
}

/** What all accounts owe per currency, and what operators wrote off so far. */
function DebtTotals({ list }: { list: AdminDebtList }) {
  const t = useTranslations("adminOps.debts");
  const locale = useLocale();
  const amounts = (rows: { currency: Currency; amount: number }[]) =>
    rows.length === 0
      ? t("none")
      : new Intl.ListFormat(locale, { type: "conjunction" }).format(
          rows.map((r) => formatMoney(r.amount, r.currency, locale)),
        );
  return (
    <dl className="card admin-debt-totals">
      <div>
        <dt>{t("totalOwed")}</dt>
        <dd data-testid="debts-total">{amounts(list.totals)}</dd>
      </div>
      <div>
        <dt>{t("totalWrittenOff")}</dt>
        <dd data-testid="debts-written-off">{amounts(list.writtenOff)}</dd>
      </div>
    </dl>
  );
}

function DebtTable({ items, onWriteOff }: { items: AdminDebt[]; onWriteOff: (debt: AdminDebt) => void }) {
  const t = useTranslations("adminOps.debts");
  const locale = useLocale();
  return (
    <div className="card admin-table-wrap">
      <table className="admin-table" aria-labelledby="admin-debts-title">
        <thead>
          <tr>
            <th scope="col">{t("account")}</th>
            <th scope="col">{t("currency")}</th>
            <th scope="col" className="num">
              {t("amount")}
            </th>
            <th scope="col">{t("since")}</th>
            <th scope="col">{t("sources")}</th>
            <th scope="col">
              <span className="sr-only">{t("actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((debt) => (
            <tr key={`${debt.user.id}-${debt.currency}`}>
              <td>
                <Link href={`/admin/accounts/${debt.user.id}`}>{debt.user.email}</Link>
              </td>
              <td>{debt.currency}</td>
              <td className="num admin-debt-amount">{formatMoney(debt.amount, debt.currency, locale)}</td>
              <td>{formatDate(debt.since, locale)}</td>
              <td>
                <ul className="admin-debt-sources">
                  {debt.sources.map((source) => (
                    <li key={`${source.cause}-${source.orderId ?? ""}-${source.at}`}>
                      {t(`causes.${source.cause}`)} · {formatMoney(source.amount, debt.currency, locale)} ·{" "}
                      {formatDate(source.at, locale)}
                      {source.orderId && (
                        <>
                          {" · "}
                          <Link href={`/admin/orders?q=${source.orderId}`} className="admin-id">
                            {t("order", { id: source.orderId.slice(0, 8) })}
                          </Link>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </td>
              <td>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm admin-nowrap"
                  aria-label={t("writeOffLabel", { email: debt.user.email, currency: debt.currency })}
                  onClick={() => onWriteOff(debt)}
                >
                  {t("writeOff")}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WriteOffDialog({
  debt,
  onClose,
  onConfirm,
}: {
  debt: AdminDebt;
  onClose: () => void;
  onConfirm: (debt: AdminDebt, reason: string) => Promise<string | null>;
}) {
  const t = useTranslations("adminOps.debts");
  const locale = useLocale();
  return (
    <ReasonDialog
      title={t("writeOffTitle")}
      intro={
        <p>
          {t("writeOffIntro", {
            amount: formatMoney(debt.amount, debt.currency, locale),
            email: debt.user.email,
          })}
        </p>
      }
      submit={t("writeOff")}
      pending={t("writingOff")}
      onClose={onClose}
      onConfirm={(reason) => onConfirm(debt, reason)}
    />
  );
}
