import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { PortfolioPage } from "@/features/portfolio/portfolio-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/portfolio/portfolio.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "portfolio" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    <AccountGuard rules={["auth"]}>
      <PortfolioPage />
    </AccountGuard>
  );
}
