import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { DisputesScreen } from "@/features/admin-console/disputes-screen.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/admin-console/disputes.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "adminOps.disputes" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    <AccountGuard rules={["auth", "admin"]}>
      <DisputesScreen />
    </AccountGuard>
  );
}
