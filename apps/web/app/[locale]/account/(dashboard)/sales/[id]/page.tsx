import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { SalePage } from "@/features/sales/sale-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/sales/sales.css";

type Props = { params: Promise<{ locale: string; id: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "sales" }))("metaTitle") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  const { id } = await params;
  return (
    <ClientMessages namespaces={["account", "sales"]}>
      <AccountGuard rules={["auth"]}>
        <SalePage saleId={id} />
      </AccountGuard>
    </ClientMessages>
  );
}
