import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { AffiliatesPage } from "@/features/affiliates/affiliates-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import { serverEnv } from "@/lib/server-env.ts";
import "@/features/affiliates/affiliates.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "affiliates" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    <AccountGuard rules={["auth"]}>
      <AffiliatesPage defaultCurrency={serverEnv.rules.defaultCurrency} />
    </AccountGuard>
  );
}
