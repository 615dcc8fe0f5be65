import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { PayoutMismatches } from "@/features/admin-console/payout-mismatches.tsx";
import { PayoutsQueue } from "@/features/admin-console/payouts-queue.tsx";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "admin.payouts" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    <AccountGuard rules={["auth", "admin"]}>
      <PayoutMismatches />
      <PayoutsQueue />
    </AccountGuard>
  );
}
