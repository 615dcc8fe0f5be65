"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { SalesOverview } from "@/features/wallet/sales-overview.tsx";

/** The dashboard home: the account's state and what to do next, then the sales and the balance. */
export function AccountHome() {
  const t = useTranslations("account");
  const { user } = useAuth();
  if (!user) return null;
  const checks = [
    { key: "emailVerified", done: user.emailVerified },
    { key: "onboarding", done: user.onboardingCompleted },
    { key: "twoFactor", done: user.twoFactorEnabled },
  ] as const;
  return (
    <section>
      <h1>{t("title")}</h1>
      <p className="lead">{t("welcome", { email: user.email })}</p>
      <ul className="checklist-status card" aria-label={t("checklist")}>
        {checks.map((c) => (
          <li key={c.key} data-done={c.done}>
            <span aria-hidden="true">{c.done ? "✓" : "○"}</span> {t(`checks.${c.key}`)}
            {!c.done && c.key === "twoFactor" && (
              <>
                {" "}
                <Link href="/account/settings#two-factor">{t("turnOn")}</Link>
              </>
            )}
          </li>
        ))}
      </ul>
      <SalesOverview />
    </section>
  );
}
