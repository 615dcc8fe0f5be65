import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { AccountPurchases } from "@/features/purchases/account-purchases.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/purchases/purchases.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "purchases" }))("accountTitle") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  const t = await getTranslations("purchases");
  return (
    // The library's texts come with its own page, not with every dashboard page.
    <ClientMessages namespaces={["account", "purchases", "invoices"]}>
      {/* GET /purchases reads the account's verified address only. */}
      <AccountGuard rules={["auth", "email-verified"]}>
        <h1>{t("accountTitle")}</h1>
        <p className="muted">{t("accountLead")}</p>
        <AccountPurchases />
      </AccountGuard>
    </ClientMessages>
  );
}
