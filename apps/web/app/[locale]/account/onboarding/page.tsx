import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { OnboardingForm } from "@/features/account/onboarding-form.tsx";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return {
    title: (await getTranslations({ locale, namespace: "onboarding" }))("title"),
    robots: { index: false },
  };
}

/** Spec section 2: no dashboard layout; login and the need-onboarding check. */
export default async function OnboardingPage({ params }: Props) {
  await pageLocale(params);
  const t = await getTranslations("onboarding");
  return (
    <main className="container section onboarding-page">
      <ClientMessages namespaces={["account", "onboarding"]}>
        <AccountGuard rules={["auth", "email-verified", "onboarding-pending"]}>
          <h1>{t("title")}</h1>
          <p className="lead">{t("lead")}</p>
          <OnboardingForm />
        </AccountGuard>
      </ClientMessages>
    </main>
  );
}
