import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { CustomersPage } from "@/features/customers/customers-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import { serverEnv } from "@/lib/server-env.ts";
import "@/features/affiliates/affiliates.css";
import "@/features/partners/partners.css";
import "@/features/customers/customers.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "customers" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    <ClientMessages namespaces={["account", "customers"]}>
      <AccountGuard rules={["auth"]}>
        <CustomersPage defaultCurrency={serverEnv.rules.defaultCurrency} />
      </AccountGuard>
    </ClientMessages>
  );
}
