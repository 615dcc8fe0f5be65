"use client";

import type { AdminAccountSummary } from "@salelink/contracts/admin-accounts";
import { useTranslations } from "next-intl";

/** An account's standing at a glance: suspended, admin, identity check, onboarding, e-mail. */
export function AccountBadges({ account }: { account: AdminAccountSummary }) {
  const t = useTranslations("adminOps.badges");
  const statusOf = useTranslations("adminOps");
  const badges: { key: string; label: string; tone: "ok" | "warn" | "danger" | "info" | "plain" }[] = [];
  if (account.deletedAt) badges.push({ key: "deleted", label: t("deleted"), tone: "danger" });
  if (account.suspendedAt) badges.push({ key: "suspended", label: t("suspended"), tone: "danger" });
  if (account.role === "admin") badges.push({ key: "admin", label: t("admin"), tone: "info" });
  badges.push(
    account.identityStatus === "approved"
      ? { key: "identity", label: t("identityApproved"), tone: "ok" }
      : account.identityStatus === "none"
        ? { key: "identity", label: t("identityNone"), tone: "plain" }
        : {
            key: "identity",
            label: t("identity", { status: statusOf(`identityStatus.${account.identityStatus}`) }),
            tone: "warn",
          },
  );
  badges.push(
    account.onboardingCompleted
      ? { key: "onboarding", label: t("onboarded"), tone: "ok" }
      : { key: "onboarding", label: t("onboarding"), tone: "warn" },
  );
  if (!account.emailVerified) badges.push({ key: "email", label: t("emailUnverified"), tone: "warn" });
  return (
    <ul className="admin-badges" aria-label={t("label")}>
      {badges.map((b) => (
        <li key={b.key} className={`admin-badge admin-badge-${b.tone}`}>
          {b.label}
        </li>
      ))}
    </ul>
  );
}
