import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { CustomerPage } from "@/features/customers/customer-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import { serverEnv } from "@/lib/server-env.ts";
import "@/features/affiliates/affiliates.css";
import "@/features/partners/partners.css";
import "@/features/customers/customers.css";

type Props = { params: Promise<{ locale: string; id: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "customers" }))("metaTitleOne") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  const { id } = await params;
  return (
    <ClientMessages namespaces={["account", "customers"]}>
      <AccountGuard rules={["auth"]}>
        <CustomerPage customerId={id} defaultCurrency={serverEnv.rules.defaultCurrency} />
      </AccountGuard>
    </ClientMessages>
  );
}
