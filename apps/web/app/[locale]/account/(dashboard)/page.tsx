import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { AccountHome } from "@/features/account/account-home.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/wallet/wallet.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "account" }))("title") };
}

/** Spec section 6: /account needs a session, a verified e-mail and completed onboarding. */
export default async function AccountPage({ params }: Props) {
  await pageLocale(params);
  return (
    <AccountGuard rules={["auth", "email-verified", "need-onboarding"]}>
      <AccountHome />
    </AccountGuard>
  );
}
