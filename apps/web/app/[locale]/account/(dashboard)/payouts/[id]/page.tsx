import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { PayoutTimeline } from "@/features/payouts/payout-timeline.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/wallet/wallet.css";
import "@/features/payouts/payouts.css";

type Props = { params: Promise<{ locale: string; id: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "payouts" }))("detail.metaTitle") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  const { id } = await params;
  return (
    <AccountGuard rules={["auth"]}>
      <PayoutTimeline payoutId={id} />
    </AccountGuard>
  );
}
