import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AccountGuard } from "@/features/account/account-guard.tsx";
import { MembershipPage } from "@/features/partners/membership-page.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import { serverEnv } from "@/lib/server-env.ts";
import "@/features/affiliates/affiliates.css";
import "@/features/partners/partners.css";

type Props = { params: Promise<{ locale: string; membershipId: string }> };

export async function generateMetadata({ params }: Props) {
  const locale = await pageLocale(params);
  return { title: (await getTranslations({ locale, namespace: "partners.programmes" }))("title") };
}

export default async function Page({ params }: Props) {
  await pageLocale(params);
  const { membershipId } = await params;
  return (
    <ClientMessages namespaces={["account", "partners"]}>
      <AccountGuard rules={["auth"]}>
        <MembershipPage membershipId={membershipId} defaultCurrency={serverEnv.rules.defaultCurrency} />
      </AccountGuard>
    </ClientMessages>
  );
}
