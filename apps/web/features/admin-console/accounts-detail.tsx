"use client";

import { adminAccountDetailSchema, adminAccountSummarySchema } from "@salelink/contracts/admin-accounts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { AccountBadges } from "./accounts-badges.tsx";
import { AccountFacts } from "./accounts-facts.tsx";
import { failureMessage, formatDate } from "./admin-format.ts";
import { ReasonDialog } from "./reason-dialog.tsx";

type Action = "suspend" | "reinstate" | "role";

/**
 * One account as the operators see it, with the actions they take on it. Each action needs a reason;
 * the API refuses (409) an admin suspending or demoting themself, and the dialog shows its answer.
 */
export function AccountDetailView({ id }: { id: string }) {
  const t = useTranslations("adminOps.account");
  const locale = useLocale();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.admin.account(id),
    queryFn: ({ signal }) => api(`/admin/accounts/${id}`, { schema: adminAccountDetailSchema, signal }),
  });
  const account = query.data ?? null;
  const state =
    query.isError && !query.isFetching
      ? query.error instanceof ApiError && query.error.status === 404
        ? "missing"
        : "failed"
      : "ready";
  const [acting, setActing] = useState<Action | null>(null);

  if (state === "failed" || state === "missing") {
    return (
      <section className="admin-ops">
        <p className="field-error" role="alert">
          {state === "missing" ? t("notFound") : t("loadFailed")}
        </p>
        <Link href="/admin/accounts">{t("back")}</Link>
      </section>
    );
  }
  if (account === null) return <p aria-busy="true">{t("loading")}</p>;

  async function act(action: Action, reason: string): Promise<string | null> {
    if (account === null) return null;
    const role = account.role === "admin" ? "user" : "admin";
    try {
      await api(`/admin/accounts/${account.id}/${action}`, {
        method: "POST",
        body: action === "role" ? { role, reason } : { reason },
        schema: adminAccountSummarySchema,
      });
      toast.success(
        action === "suspend" ? t("suspended") : action === "reinstate" ? t("reinstated") : t("roleChanged"),
        { description: account.email },
      );
      // The audit entries and everything the action changed, as the API now has them; the search
      // list shows the account's new state too.
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.accounts });
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin.account(account.id) });
      return null;
    } catch (err) {
      return failureMessage(err, t("actionFailed"));
    }
  }

  const name = account.onboarding
    ? (account.onboarding.companyName ??
      [account.onboarding.firstName, account.onboarding.lastName].filter(Boolean).join(" "))
    : "";

  return (
    <section className="admin-ops admin-account">
      <Link href="/admin/accounts" className="admin-back">
        {t("back")}
      </Link>
      <div className="admin-account-head">
        <div>
          <h1>{account.email}</h1>
          {name && <p className="muted admin-account-name">{name}</p>}
        </div>
        <div className="actions admin-account-actions">
          {account.suspendedAt ? (
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setActing("reinstate")}>
              {t("reinstate")}
            </button>
          ) : (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => setActing("suspend")}>
              {t("suspend")}
            </button>
          )}
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setActing("role")}>
            {t("changeRole")}
          </button>
        </div>
      </div>
      <AccountBadges account={account} />
      {account.suspendedAt && (
        <p className="admin-suspended-note">
          {t("suspendedSince", { date: formatDate(account.suspendedAt, locale) })}
        </p>
      )}
      <AccountFacts account={account} />
      {acting && (
        <ReasonDialog
          title={
            acting === "suspend"
              ? t("suspendTitle")
              : acting === "reinstate"
                ? t("reinstateTitle")
                : t("roleTitle")
          }
          intro={
            acting === "suspend"
              ? t("suspendIntro", { email: account.email })
              : acting === "reinstate"
                ? t("reinstateIntro", { email: account.email })
                : account.role === "admin"
                  ? t("roleToUser", { email: account.email })
                  : t("roleToAdmin", { email: account.email })
          }
          submit={
            acting === "suspend" ? t("suspend") : acting === "reinstate" ? t("reinstate") : t("changeRole")
          }
          pending={t("saving")}
          onClose={() => setActing(null)}
          onConfirm={(reason) => act(acting, reason)}
        />
      )}
    </section>
  );
}
