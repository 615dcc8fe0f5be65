"use client";

import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type ReactNode, useEffect } from "react";
import { useAuth } from "@/features/auth/auth-provider.tsx";

export type GuardRule = "auth" | "email-verified" | "need-onboarding" | "onboarding-pending" | "admin";

/**
 * The route guards of spec section 4. `auth`: signed in, else to /signin (and back after);
 * `email-verified`: else to /verify-email; `need-onboarding`: onboarding done, else to
 * /account/onboarding; `onboarding-pending`: the onboarding page itself, only while it is needed;
 * `admin`: the admin area, else to /account (the API refuses its calls anyway).
 */
export function AccountGuard({ rules, children }: { rules: GuardRule[]; children: ReactNode }) {
  const t = useTranslations("account");
  const { user, authChecked, leaving } = useAuth();
  const router = useRouter();
  const pathname = usePathname();

  const redirect = (() => {
    if (!authChecked || leaving) return null;
    if (!user) return `/signin?next=${encodeURIComponent(pathname)}`;
    if (rules.includes("email-verified") && !user.emailVerified) {
      return `/verify-email?email=${encodeURIComponent(user.email)}`;
    }
    if (rules.includes("need-onboarding") && !user.onboardingCompleted) return "/account/onboarding";
    if (rules.includes("onboarding-pending") && user.onboardingCompleted) return "/account";
    if (rules.includes("admin") && user.role !== "admin") return "/account";
    return null;
  })();

  useEffect(() => {
    if (redirect) router.replace(redirect);
  }, [redirect, router]);

  if (leaving) return null;
  if (!authChecked || redirect) {
    return (
      <p className="muted loading" role="status" aria-live="polite">
        {t("loading")}
      </p>
    );
  }
  return <>{children}</>;
}
