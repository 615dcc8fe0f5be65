import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { PayoutsPage } from "@/features/payouts/payouts-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import { serverEnv } from "@/lib/server-env.ts";
import "@/features/wallet/wallet.css";
import "@/features/payouts/payouts.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "payouts" }))("pageTitle") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    <AccountGuard rules={["auth"]}>
      <PayoutsPage defaultCurrency={serverEnv.rules.defaultCurrency} />
    </AccountGuard>
  );
}
