import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { LinksPage } from "@/features/links/links-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import { serverEnv } from "@/lib/server-env.ts";
import "@/features/links/links.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "links" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  const { linkPriceMinMinor, linkPriceMaxMinor, defaultCurrency } = serverEnv.rules;
  return (
    <AccountGuard rules={["auth"]}>
      <LinksPage
        rules={{ priceMinMinor: linkPriceMinMinor, priceMaxMinor: linkPriceMaxMinor, defaultCurrency }}
      />
    </AccountGuard>
  );
}
