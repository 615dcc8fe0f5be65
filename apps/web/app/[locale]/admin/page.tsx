import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { Overview } from "@/features/admin-console/overview.tsx";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "adminOverview.overview" }))("title") };
}

/** The console's home: the business at a glance and what waits for an operator. */
export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    <AccountGuard rules={["auth", "admin"]}>
      <Overview />
    </AccountGuard>
  );
}
