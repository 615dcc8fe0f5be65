import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { AccountDetailView } from "@/features/admin-console/accounts-detail.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/admin-console/accounts.css";

type Props = { params: Promise<{ locale: string; id: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "adminOps.account" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  return (
    <AccountGuard rules={["auth", "admin"]}>
      <AccountDetailView id={id} />
    </AccountGuard>
  );
}
