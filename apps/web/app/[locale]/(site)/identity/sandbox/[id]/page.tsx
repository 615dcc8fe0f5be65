import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { SandboxIdentity } from "@/features/identity/sandbox-identity.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/identity/identity.css";

type Props = { params: Promise<{ locale: string; id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "identity.sandbox" });
  return { title: t("title"), robots: { index: false, follow: false } };
}

/** The sandbox identity provider's page (the default provider): the person picks the outcome. */
export default async function Page({ params }: Props) {
  await pageLocale(params);
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  return (
    <ClientMessages namespaces={["account", "identity"]}>
      <AccountGuard rules={["auth"]}>
        <SandboxIdentity id={id} />
      </AccountGuard>
    </ClientMessages>
  );
}
