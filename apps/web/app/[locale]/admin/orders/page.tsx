import { getTranslations } from "next-intl/server";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { OrdersSearch } from "@/features/admin-console/orders-search.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/admin-console/accounts.css";
import "@/features/admin-console/orders.css";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "adminOps.orders" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  return (
    <AccountGuard rules={["auth", "admin"]}>
      <OrdersSearch />
    </AccountGuard>
  );
}
